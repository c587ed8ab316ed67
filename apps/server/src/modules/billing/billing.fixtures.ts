import { eq } from "drizzle-orm";
import { planTemplates, users, walletLedger } from "../../db/schema/index.ts";
import type { TestApp } from "../../test/harness.ts";
import { billingDemoSeed } from "./billing.seed.ts";

export const API = "/agent_api/api";

/** The demo catalogue (plans, durations, top-ups) in a test database. */
export async function seedCatalog(t: TestApp) {
  await billingDemoSeed(t.platform.db, { users: {} });
  const plans = await t.platform.db.select().from(planTemplates);
  const byLevel = Object.fromEntries(plans.map((p) => [p.memberLevel, p]));
  return byLevel as Record<string, (typeof plans)[number]>;
}

export async function balanceOf(t: TestApp, userId: string) {
  const [u] = await t.platform.db.select().from(users).where(eq(users.id, userId));
  return u;
}

export async function ledgerOf(t: TestApp, userId: string) {
  return t.platform.db.select().from(walletLedger).where(eq(walletLedger.userId, userId));
}

export type Inject = TestApp["app"]["inject"];
export function caller(t: TestApp, headers: Record<string, string>) {
  return {
    get: (url: string) => t.app.inject({ method: "GET", url: `${API}${url}`, headers }),
    post: (url: string, payload?: object, extra: Record<string, string> = {}) =>
      t.app.inject({ method: "POST", url: `${API}${url}`, headers: { ...headers, ...extra }, payload }),
    put: (url: string, payload?: object) => t.app.inject({ method: "PUT", url: `${API}${url}`, headers, payload }),
    delete: (url: string) => t.app.inject({ method: "DELETE", url: `${API}${url}`, headers }),
  };
}

/** Pays a sandbox order the way the payer does: the scan URL's token, then confirm. */
export async function paySandbox(t: TestApp, payUrl: string, decision: "confirm" | "decline" = "confirm") {
  const url = new URL(payUrl);
  const orderNo = url.searchParams.get("orderNo") ?? "";
  const token = url.searchParams.get("t") ?? "";
  return t.app.inject({ method: "POST", url: `${API}/order/sandbox/${orderNo}`, payload: { t: token, decision } });
}
