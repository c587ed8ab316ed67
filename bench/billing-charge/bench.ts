// Per-use charging of a priced agent (billing.checkChat: charging-flag upsert, conditional debit,
// ledger row, in one transaction) vs the bare conditional balance update it is built on, in one
// run on the same database. Prints both and the ratio. Run: npm run bench:billing (PGlite; set
// TEST_DATABASE_URL for PostgreSQL). Not part of npm test.
import { eq, gte, sql, and } from "drizzle-orm";
import { users } from "../../apps/server/src/db/schema/index.ts";
import type { Caller } from "../../apps/server/src/platform/auth.ts";
import { createUser } from "../../apps/server/src/test/factories.ts";
import { createTestApp } from "../../apps/server/src/test/harness.ts";

const RUNS = Number(process.env.RUNS ?? 400);
const WARMUP = 40;

const t = await createTestApp({ LOG_LEVEL: "silent" });
const u = await createUser(t, { memberLevel: "MONTHLY", balanceCents: 100_000_000 });
const caller = (await t.platform.callers.resolve(u.token)) as Caller;
const agent = { agentId: "bench-agent", agentName: "基准智能体", priceCents: 1, ownerId: "someone" };
const db = t.platform.db;

async function time(label: string, op: (i: number) => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await op(-i - 1);
  const started = process.hrtime.bigint();
  for (let i = 0; i < RUNS; i++) await op(i);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`${label.padEnd(40)} ${(ms / RUNS).toFixed(3)} ms/op  ${Math.round((RUNS * 1000) / ms)} op/s`);
  return ms / RUNS;
}

const baseline = await time("baseline: conditional balance update", () =>
  db
    .update(users)
    .set({ balanceCents: sql`${users.balanceCents} - 1` })
    .where(and(eq(users.id, u.id), gte(users.balanceCents, 1))),
);
const charged = await time("checkChat: charged use (new session)", (i) => t.services.billing.checkChat(caller, agent, `s${i}`));
const flagged = await time("checkChat: within the 5-minute flag", () => t.services.billing.checkChat(caller, agent, "one-session"));
console.log(`\ncharged use / baseline: ${(charged / baseline).toFixed(2)}x   flagged use / baseline: ${(flagged / baseline).toFixed(2)}x`);
await t.close();
