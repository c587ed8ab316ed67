// The platform under test, in its own process as in production (bench.ts drives it over HTTP):
// grows the catalogue on request, counts uses on request, and measures the raw SQL the route
// runs, in this process, since PGlite's database cannot be opened by a second process.
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { AgentsRepository, marketPath } from "../../apps/server/src/modules/agents/agents.repository.ts";
import type { RuntimeAgent } from "../../apps/server/src/modules/agents/runtime-agent.ts";
import { EVERYTHING } from "../../apps/server/src/platform/invalidation.ts";
import { createUser } from "../../apps/server/src/test/factories.ts";
import { createTestApp } from "../../apps/server/src/test/harness.ts";
import { load, PAGE_SIZE } from "./load.ts";

const t = await createTestApp({ LOG_LEVEL: "silent" });
await t.app.listen({ port: 0, host: "127.0.0.1" });
const user = await createUser(t);
const db = t.platform.db;
const tenantId = user.tenantId;

// The repository the route reads through, without the route's page cache: what a page that misses costs.
const repo = new AgentsRepository(db, async () => {});

/**
 * The statements the route runs for page 1 of a list it has never read (its totals not cached either),
 * as the database sees them. A page read again after a use runs the last one only.
 */
const raw = (name?: string) => async () => {
  const listed = await repo.marketTotal([tenantId], {});
  const total = name ? await repo.marketTotal([tenantId], { name }) : listed;
  await repo.marketPage([tenantId], { name }, 1, PAGE_SIZE, marketPath(total, listed.total, PAGE_SIZE));
};

/**
 * Adds listed agents up to `size`, each with a ~1 KB config like a real one; 1 in 10 is a 客服, so
 * that a search answers a full page at every size (at 1 in 100 the 1k run answered 10 cards).
 */
async function grow(size: number) {
  const filler = "x".repeat(900);
  // Loaded as a bulk load is: the secondary indexes built once afterwards (on PGlite, keeping them
  // up row by row made 100k agents take over 25 minutes). The same definitions, so the same plans.
  const indexes = (
    await db.execute(sql`select i.indexname as name, i.indexdef as definition from pg_indexes i
      where i.tablename = 'agents' and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`)
  ).rows as { name: string; definition: string }[];
  for (const index of indexes) await db.execute(sql.raw(`drop index "${index.name}"`));
  await db.execute(sql`insert into agents (id, tenant_id, owner_id, agent_name, config, launch_version, listing, use_count, agent_status)
    select gen_random_uuid()::text, ${tenantId}, ${user.id}, '智能体' || g,
      jsonb_build_object('persona', ${filler}::text, 'launchTags', jsonb_build_array('办公')),
      1, jsonb_build_object('agentName', '智能体' || g || case when g % 10 = 0 then '客服' else '' end, 'agentDescription', '',
        'agentIcon', '1', 'agentIconBackground', '#e8f3ff', 'priceCents', 0, 'copyable', false, 'skillNum', 0),
      (g * 7919) % 1000, 'C90_Released'
    from generate_series((select count(*) from agents) + 1, ${size}) g`);
  for (const index of indexes) await db.execute(sql.raw(index.definition));
  // Vacuumed as autovacuum would have by then: it also merges the GIN index's list of pending entries.
  await db.execute(sql`vacuum analyze agents`);
  // Written behind the platform's back: its cached pages are dropped as any change of agents does.
  await t.platform.invalidate("agent", EVERYTHING);
}

/**
 * Counts a use of the most used agent `perSecond` times a second (0: stops), through the path a
 * reply that ends takes: each one drops the cached pages in every process.
 */
let counting: NodeJS.Timeout | undefined;
async function countUses(perSecond: number) {
  clearInterval(counting);
  if (!perSecond) return;
  const caller = (await t.platform.callers.resolve(user.token))!;
  const [{ id }] = (await db.execute(sql`select id from agents order by use_count desc limit 1`)).rows as { id: string }[];
  const reply = { agentId: id, versionId: "bench" } as RuntimeAgent;
  counting = setInterval(() => void t.services.agents.replyDone(caller, reply), 1000 / perSecond);
}

process.on("message", async (m: { grow?: number; uses?: number; raw?: { name?: string; clients: number; seconds: number } }) => {
  if (m.grow) {
    await grow(m.grow);
    process.send?.({ grown: m.grow });
  }
  if (m.uses !== undefined) {
    await countUses(m.uses);
    process.send?.({ counting: m.uses });
  }
  if (m.raw) process.send?.({ raw: await load(raw(m.raw.name), m.raw.clients, m.raw.seconds) });
});
process.send?.({
  port: (t.app.server.address() as AddressInfo).port,
  token: user.token,
  driver: t.platform.database.driver,
});
process.on("disconnect", () => void t.close().finally(() => process.exit(0)));
