import { MARKET_MAX_PAGES } from "@agentfair/contracts";
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EVERYTHING } from "../../platform/invalidation.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { agentSteps } from "./agents.fixtures.ts";
import { AgentsRepository, MARKET_COUNT_LIMIT, type MarketPath, marketPath } from "./agents.repository.ts";

let t: TestApp;
let s: ReturnType<typeof agentSteps>;
let owner: TestUser;
let hirer: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  s = agentSteps(t);
  owner = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  hirer = await createUser(t);
  admin = await createUser(t, { username: "admin" });
});
afterAll(async () => {
  await t.close();
});

const names = async (name: string) => (await s.market(hirer, { name })).list.map((c: { agentName: string }) => c.agentName).sort();

describe("marketplace search and totals at scale (issue 19)", () => {
  it("name search finds every substring, one character, Chinese pairs and longer, case-insensitively", async () => {
    for (const name of ["智能客服Pro", "客服助手", "法律顾问", "100%准确"]) await s.listed(owner, admin, { name });
    expect(await names("客")).toEqual(["客服助手", "智能客服Pro"]);
    expect(await names("客服")).toEqual(["客服助手", "智能客服Pro"]);
    expect(await names("能客服p")).toEqual(["智能客服Pro"]);
    expect(await names("PRO")).toEqual(["智能客服Pro"]);
    expect(await names("服助")).toEqual(["客服助手"]);
    expect(await names("客助")).toEqual([]);
    expect(await names("%")).toEqual(["100%准确"]);
    expect(await names("0%准")).toEqual(["100%准确"]);
    expect(await names("_")).toEqual([]);
  });

  it("name search lowers the term as the database lowers names (Greek final sigma, Turkish dotted I)", async () => {
    // JavaScript lowers a final Σ to ς and İ to i + a combining dot; PostgreSQL's lower() gives σ and i.
    for (const name of ["ΟΔΟΣ指南", "İzmir助手"]) await s.listed(owner, admin, { name });
    expect(await names("ΟΣ")).toEqual(["ΟΔΟΣ指南"]);
    expect(await names("ΔΟΣ")).toEqual(["ΟΔΟΣ指南"]);
    expect(await names("İz")).toEqual(["İzmir助手"]);
    expect(await names("İzmir")).toEqual(["İzmir助手"]);
  });

  it("the unfiltered total follows listing, taking down, putting back and deleting", async () => {
    const total = async () => (await s.market(hirer)).total;
    const before = await total();
    const id = await s.listed(owner, admin, { name: "计数助手" });
    expect(await total()).toBe(before + 1);
    const shelf = `/agent_api/api/agent/launchVersionDisabled/${id}`;
    expect((await s.call(owner, "PUT", shelf, { disabled: true })).statusCode).toBe(200);
    expect(await total()).toBe(before);
    expect((await s.call(admin, "PUT", shelf, { disabled: false })).statusCode).toBe(200);
    expect(await total()).toBe(before + 1);
    expect((await s.market(hirer)).list.length).toBe(before + 1);
    expect((await s.call(owner, "DELETE", `/agent_api/api/agent/${id}`)).statusCode).toBe(200);
    expect(await total()).toBe(before);
  });
});

describe("a search matched by more agents than it counts (issue 19)", () => {
  let big: TestApp;
  let user: TestUser;
  let repo: AgentsRepository;
  const scope = () => [user.tenantId];
  beforeAll(async () => {
    big = await createTestApp();
    user = await createUser(big);
    repo = new AgentsRepository(big.platform.db, async () => {});
    // One more 规模 than a search counts, most used first by g; one of them also 稀有.
    await big.platform.db.execute(sql`insert into agents (id, tenant_id, owner_id, agent_name, config, launch_version, listing, use_count, agent_status)
      select 'scale-' || g, ${user.tenantId}, ${user.id}, 'x',
        jsonb_build_object('launchTags', case when g % 3 = 0 then '["general"]'::jsonb else '[]'::jsonb end, 'labelId', 'label-' || g % 7), 1,
        jsonb_build_object('agentName', '规模' || g || case when g = 5000 then '稀有' else '' end, 'agentDescription', '',
          'agentIcon', '1', 'agentIconBackground', '#e8f3ff', 'priceCents', 0, 'copyable', false, 'skillNum', 0),
        g, 'C90_Released'
      from generate_series(1, ${MARKET_COUNT_LIMIT + 1}) g`);
    // Statistics, as autovacuum takes them on PostgreSQL and the hourly analyze on PGlite.
    await big.platform.db.execute(sql`analyze agents`);
    await big.platform.invalidate("agent", EVERYTHING);
  }, 120_000);
  afterAll(async () => big.close());

  const market = async (body: object) => {
    const res = await big.app.inject({ method: "POST", url: "/agent_api/api/agent/launch/page", payload: body, headers: user.headers });
    return { status: res.statusCode, ...res.json().data };
  };
  /** The plan of the last statement `run` sent. */
  const planOf = async (run: () => Promise<unknown>) => {
    const spy = vi.spyOn(big.platform.db, "execute");
    await run();
    const last = spy.mock.calls.at(-1)![0] as SQL;
    spy.mockRestore();
    const result = (await big.platform.db.execute(sql`explain ${last}`)) as unknown as { rows: { "QUERY PLAN": string }[] };
    return result.rows.map((r) => r["QUERY PLAN"]).join("\n");
  };

  it("says 10000+ for a term in every name, and counts the rest exactly", async () => {
    const every = await market({ name: "规模" });
    expect(every).toMatchObject({ total: MARKET_COUNT_LIMIT, totalExact: false });
    expect(every.list.map((c: { agentId: string }) => c.agentId).slice(0, 2)).toEqual([
      `scale-${MARKET_COUNT_LIMIT + 1}`,
      `scale-${MARKET_COUNT_LIMIT}`,
    ]);
    expect(await market({})).toMatchObject({ total: MARKET_COUNT_LIMIT + 1, totalExact: true });
    expect(await market({ name: "稀有" })).toMatchObject({ total: 1, totalExact: true, list: [{ agentId: "scale-5000" }] });
    expect(await market({ name: "规模999" })).toMatchObject({ total: 11, totalExact: true });
  });

  it("serves ten pages of any list, the tenth as deep as it goes, and refuses the eleventh", async () => {
    const tenth = await market({ name: "规模", page: MARKET_MAX_PAGES });
    expect(tenth.list[0].agentId).toBe(`scale-${MARKET_COUNT_LIMIT + 1 - 99 * (MARKET_MAX_PAGES - 1)}`);
    expect(tenth.list).toHaveLength(99);
    expect((await market({ page: MARKET_MAX_PAGES + 1 })).status).toBe(400);
    // Past the last match: nothing to read.
    expect(await market({ name: "稀有", page: 2 })).toMatchObject({ total: 1, list: [] });
  });

  it("reads the same page either way, and each way through its index", async () => {
    const page = (name: string, n: number, via: MarketPath) => repo.marketPage(scope(), { name }, n, 99, via);
    for (const [name, n] of [
      ["规模", 1],
      ["规模", 10],
      ["规模99", 2],
      ["稀有", 1],
    ] as const)
      expect((await page(name, n, "index")).map((r) => r.id)).toEqual((await page(name, n, "order")).map((r) => r.id));
    for (const filter of [{ tag: "general" }, { labelId: "label-3" }, { name: "规模12", tag: "general", labelId: "label-2" }]) {
      const ids = async (via: MarketPath) => (await repo.marketPage(scope(), filter, 2, 99, via)).map((r) => r.id);
      expect(await ids("index")).toEqual(await ids("order"));
    }
    expect(await repo.marketTotal(scope(), { tag: "general" })).toEqual({ total: 3333, exact: true });
    expect(await repo.marketTotal(scope(), { labelId: "label-3" })).toEqual({ total: 1429, exact: true });
    // A term in every name walks the market's order and sorts nothing; a rare one reads its matches from the names' index.
    const walk = await planOf(() => page("规模", 1, "order"));
    expect(walk).toMatch(/Index Scan using agents_market on agents/);
    expect(walk).not.toMatch(/Sort|agents_market_names/);
    expect(await planOf(() => page("稀有", 1, "index"))).toMatch(/Bitmap Index Scan on agents_market_names/);
    // The count of a term in every name stops at its bound instead of reading every match.
    expect(await planOf(() => repo.marketTotal(scope(), { name: "规模" }))).toMatch(/Limit/);
  });

  it("the cheaper way: fewer matches than the walk would read, or the walk", () => {
    expect(marketPath({ total: 10, exact: true }, 1000, 99)).toBe("index");
    expect(marketPath({ total: 100, exact: true }, 1000, 99)).toBe("index");
    expect(marketPath({ total: 400, exact: true }, 1000, 99)).toBe("order");
    expect(marketPath({ total: 3000, exact: true }, 100_000, 99)).toBe("index");
    expect(marketPath({ total: 3000, exact: true }, 100_000, 990)).toBe("index");
    expect(marketPath({ total: 9999, exact: true }, 100_000, 99)).toBe("order");
    expect(marketPath({ total: MARKET_COUNT_LIMIT, exact: false }, 10_000_000, 990)).toBe("order");
  });

  it("a counted use reads the page again but not its count, which only an agent change drops", async () => {
    expect(await market({ name: "稀有" })).toMatchObject({ total: 1 });
    await big.platform.db.execute(sql`update agents set listing = jsonb_set(listing, '{agentName}', '"又一个稀有"') where id = 'scale-1'`);
    await big.platform.invalidate("agentUse", "scale-1");
    const afterUse = await market({ name: "稀有" });
    expect(afterUse.list).toHaveLength(2);
    expect(afterUse.total).toBe(1);
    await big.platform.invalidate("agent", "scale-1");
    expect(await market({ name: "稀有" })).toMatchObject({ total: 2 });
  });

  it("keeps the names' index without a pending list, which every search would read through", async () => {
    const result = (await big.platform.db.execute(
      sql`select reloptions from pg_class where relname = 'agents_market_names'`,
    )) as unknown as {
      rows: { reloptions: string[] }[];
    };
    expect(result.rows[0].reloptions).toContain("fastupdate=off");
  });
});
