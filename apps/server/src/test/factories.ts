import { createHash, randomUUID } from "node:crypto";
import type { MemberLevel } from "@agentfair/contracts";
import { desc, eq } from "drizzle-orm";
import { captchas, outbox, tenants, users } from "../db/schema/index.ts";
import { hashPassword } from "../platform/passwords.ts";
import type { TestApp } from "./harness.ts";

export const TEST_PASSWORD = "secret-pass-1";
let passwordHash: Promise<string> | undefined;

/** A tenant that takes sign-ups, as the demo tenant does (a test of a closed one says so). */
export async function createTenant(t: TestApp, domain = `t${randomUUID().slice(0, 8)}`, openRegistration = true) {
  const [row] = await t.platform.db
    .insert(tenants)
    .values({ domain, name: `Tenant ${domain}`, openRegistration })
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

export interface UserOptions {
  username?: string;
  domain?: string;
  memberLevel?: MemberLevel;
  isWhite?: boolean;
  balanceCents?: number;
  email?: string;
  phone?: string;
}

/** A random address, so the per-IP limits of one test never touch another's. */
export const randomIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/** Inserts a user (default tenant unless `domain`) with TEST_PASSWORD, without signing in. */
export async function insertUser(t: TestApp, opts: UserOptions = {}) {
  // A cheap scrypt cost for test users: the suites sign in about a thousand times, and each check at the
  // platform's cost takes a quarter of a second of CPU here. The login reads the cost from the hash.
  passwordHash ??= hashPassword(TEST_PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
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
      phone: opts.phone ?? null,
      passwordHash: await passwordHash,
      memberLevel: opts.memberLevel ?? "FREE",
      memberEndAt: opts.memberLevel && opts.memberLevel !== "FREE" ? new Date(Date.now() + 30 * 86400_000) : null,
      isWhite: opts.isWhite ?? false,
      balanceCents: opts.balanceCents ?? 0,
    })
    .returning();
  return { user, tenant, domain: tenant.isDefault ? "" : tenant.domain };
}

/** Creates a user (default tenant unless `domain`) and signs in through the real login call. */
export async function createUser(t: TestApp, opts: UserOptions = {}): Promise<TestUser> {
  const { user, tenant, domain } = await insertUser(t, opts);
  const captcha = t.platform.config.CAPTCHA === "on" ? await solveCaptcha(t) : {};
  const res = await t.app.inject({
    method: "POST",
    url: "/agent_api/api/auth/login",
    payload: { username: user.username, password: TEST_PASSWORD, domain, ...captcha },
    remoteAddress: randomIp(),
  });
  if (res.statusCode !== 200) throw new Error(`createUser: login failed ${res.statusCode} ${res.body}`);
  const token = res.json().data.token as string;
  return { id: user.id, username: user.username, tenantId: tenant.id, domain, token, headers: { authorization: `Bearer ${token}` } };
}

/**
 * A flagship member past the first-login survey with an agent released as people chat with it (the
 * debug run that unlocks release is recorded directly): what the benches and the browser cluster open.
 */
export async function memberWithReleasedAgent(t: TestApp, agentName: string) {
  const user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  const call = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: user.headers, payload });
  await call("POST", "/agent_api/api/userinfo/firstLoginDone", { survey: "skipped" });
  const agentId = (await call("POST", "/aiagent_api/agent/quick/add", { agentName })).json().data.agentId as string;
  const revision = (await call("GET", `/aiagent_api/agent/draft/${agentId}`)).json().data.revision;
  const caller = await t.platform.callers.resolve(user.token);
  if (!caller) throw new Error("memberWithReleasedAgent: the new member's token names nobody");
  await t.services.agents.markDebugSucceeded(caller, agentId, revision);
  const released = await call("POST", `/aiagent_api/agent/release/${agentId}`, { notes: agentName });
  if (released.statusCode !== 200) throw new Error(`memberWithReleasedAgent: release failed ${released.body}`);
  return { user, agentId };
}

/**
 * A captcha from the real call whose answer is then set to a known text (the image is random):
 * the test seam for "a correct captcha". Returns the login fields `{ uuid, code }`.
 */
export async function solveCaptcha(t: TestApp, answer = "k7Pq") {
  const res = await t.app.inject({ url: "/agent_api/api/loginImage/captchaImage", remoteAddress: randomIp() });
  const { uuid } = res.json().data as { uuid: string };
  const answerHash = createHash("sha256").update(`${t.platform.secret}:${answer.toLowerCase()}`).digest("hex");
  await t.platform.db.update(captchas).set({ answerHash }).where(eq(captchas.id, uuid));
  return { uuid, code: answer };
}

/** The newest check code mailed to `contact`, read from the outbox as an administrator would. */
export async function lastCheckCode(t: TestApp, contact: string): Promise<string> {
  const rows = await t.platform.db.select().from(outbox).where(eq(outbox.recipient, contact)).orderBy(desc(outbox.createdAt)).limit(1);
  const code = rows[0]?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no check code was mailed to ${contact}`);
  return code;
}

export const outboxCount = async (t: TestApp, contact: string) =>
  (await t.platform.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.recipient, contact))).length;

/** The fields of the `orders` table the report tests ask about. */
export const ORDER_FIELDS = [
  { name: "customer", type: "text" },
  { name: "amount", type: "number" },
];

/** A data table of `user` created through the real calls, with `rows` added one by one; returns its id. */
export async function createDataTable(
  t: TestApp,
  user: TestUser,
  name: string,
  fields: { name: string; type: string }[],
  rows: Record<string, unknown>[] = [],
): Promise<string> {
  const table = await t.app.inject({ method: "POST", url: "/aiagent_api/datatable", headers: user.headers, payload: { name, fields } });
  if (table.json().code !== 200) throw new Error(`createDataTable: ${table.body}`);
  const id = table.json().data.id as string;
  for (const row of rows) {
    const res = await t.app.inject({ method: "POST", url: `/aiagent_api/datatable/${id}/rows`, headers: user.headers, payload: row });
    if (res.json().code !== 200) throw new Error(`createDataTable row: ${res.body}`);
  }
  return id;
}
