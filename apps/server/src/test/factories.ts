import { randomUUID } from "node:crypto";
import type { MemberLevel } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import { tenants, users } from "../db/schema/index.ts";
import { hashPassword } from "../platform/passwords.ts";
import type { TestApp } from "./harness.ts";

export const TEST_PASSWORD = "secret-pass-1";
let passwordHash: Promise<string> | undefined;

export async function createTenant(t: TestApp, domain = `t${randomUUID().slice(0, 8)}`) {
  const [row] = await t.platform.db
    .insert(tenants)
    .values({ domain, name: `Tenant ${domain}` })
    .returning();
  return row;
}

export interface TestUser {
  id: string;
  username: string;
  tenantId: string;
  domain: string;
  token: string;
  /** Headers for app.inject: the bearer token. */
  headers: { authorization: string };
}

/** Creates a user (default tenant unless `domain`) and signs in through the real login call. */
export async function createUser(
  t: TestApp,
  opts: { username?: string; domain?: string; memberLevel?: MemberLevel; isWhite?: boolean; balanceCents?: number; email?: string } = {},
): Promise<TestUser> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const tenant = opts.domain
    ? ((await t.platform.db.select().from(tenants).where(eq(tenants.domain, opts.domain)))[0] ?? (await createTenant(t, opts.domain)))
    : await t.services.tenants.defaultTenant();
  const username = opts.username ?? `u${randomUUID().slice(0, 8)}`;
  const [user] = await t.platform.db
    .insert(users)
    .values({
      tenantId: tenant.id,
      username,
      email: opts.email ?? null,
      passwordHash: await passwordHash,
      memberLevel: opts.memberLevel ?? "FREE",
      memberEndAt: opts.memberLevel && opts.memberLevel !== "FREE" ? new Date(Date.now() + 30 * 86400_000) : null,
      isWhite: opts.isWhite ?? false,
      balanceCents: opts.balanceCents ?? 0,
    })
    .returning();
  const domain = tenant.isDefault ? "" : tenant.domain;
  const res = await t.app.inject({
    method: "POST",
    url: "/agent_api/api/auth/login",
    payload: { username, password: TEST_PASSWORD, domain },
    remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
  const token = res.json().data.token as string;
  return { id: user.id, username, tenantId: tenant.id, domain, token, headers: { authorization: `Bearer ${token}` } };
}
