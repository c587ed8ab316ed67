import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Caller } from "../../platform/auth.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { DatatablesService } from "./datatables.service.ts";

const values = (n: number) => Array.from({ length: n }, (_, i) => `(${i})`).join(", ");
/** About a million rows of four md5 each: seconds of work, within the planner's budget. */
const SLOW = `select count(*) from (values ${values(100)}) a(x), (values ${values(100)}) b(x), (values ${values(100)}) c(x)
  where md5(md5(md5(md5(concat(a.x, '-', b.x, '-', c.x))))) = 'x'`;

// PGlite runs a query to its end in the thread that asks: its data-table SQL runs in a worker the
// server can end. PostgreSQL ends a query itself (statement_timeout), tested with the routes.
describe.skipIf(!!process.env.TEST_DATABASE_URL)("data-table SQL on PGlite", { timeout: 60_000 }, () => {
  let t: TestApp;
  let owner: TestUser;
  let tableId: string;
  let service: DatatablesService;
  const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/aiagent_api${url}`, payload: payload as never, headers: owner.headers });
  const reader = () => ({ userId: owner.id, tenantId: owner.tenantId });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t);
    const res = await call("POST", "/datatable", { name: "stock", fields: [{ name: "item", type: "text" }] });
    tableId = res.json().data.id;
    service = new DatatablesService(t.platform, { queryTimeoutMs: 400 });
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await t?.close();
  });

  it("answers from copies that follow every change of the rows and the columns", async () => {
    const items = async () =>
      ((await call("POST", "/datatable/query", { sql: "select item from stock order by _id" })).json().data.rows as string[][]).flat();
    expect(await items()).toEqual([]);
    await call("POST", `/datatable/${tableId}/rows`, { item: "苹果" });
    await call("POST", `/datatable/${tableId}/rows`, { item: "香蕉" });
    expect(await items()).toEqual(["苹果", "香蕉"]);
    const rows = (await call("POST", `/datatable/${tableId}/rows/page`, {})).json().data.list as { _id: number; item: string }[];
    const banana = rows.find((r) => r.item === "香蕉") as { _id: number };
    await call("PUT", `/datatable/${tableId}/rows/${banana._id}`, { item: "橙子" });
    expect(await items()).toEqual(["苹果", "橙子"]);
    await call("DELETE", `/datatable/${tableId}/rows/${banana._id}`);
    expect(await items()).toEqual(["苹果"]);
    const table = (await call("GET", `/datatable/${tableId}`)).json().data;
    await call("PUT", "/datatable", { ...table, fields: [...table.fields, { name: "qty", type: "integer" }] });
    const withQty = await call("POST", "/datatable/query", { sql: "select item, qty from stock" });
    expect(withQty.json().data).toMatchObject({ columns: ["item", "qty"], rows: [["苹果", null]] });
  });

  it("ends a query that outlives its time, keeps the server answering meanwhile, and runs the next", async () => {
    await service.query(reader(), "select 1"); // the worker is up
    const started = Date.now();
    const slow = service.query(reader(), SLOW).catch((e: Error) => e);
    // The platform's own database answers while the query runs.
    await new Promise((r) => setTimeout(r, 100));
    const asked = Date.now();
    await t.platform.db.execute(sql`select 1`);
    expect(Date.now() - asked).toBeLessThan(200);
    expect(String(await slow)).toContain("sqlTimeout");
    expect(Date.now() - started).toBeLessThan(3000);
    const next = await service.query(reader(), "select count(*) as n from stock");
    expect(next.rows).toEqual([[1]]);
  });

  it("stops a query that builds huge values at the worker's memory, not the server's", async () => {
    const level = (from: string) => `select concat(s, s, s, s, s, s, s, s, s, s) as s from ${from}`;
    let q = "select concat(x, x, x, x, x, x, x, x, x, x) as s from (values ('aaaaaaaaaa')) v(x)";
    for (const name of ["a", "b", "c", "d", "e", "f", "g"]) q = `with ${name} as (${q}) ${level(name)}`;
    const before = process.memoryUsage().rss;
    const big = new DatatablesService(t.platform, { queryTimeoutMs: 20_000 });
    try {
      const res = await big.query(reader(), `select length(s) from (${q}) z`).catch((e: Error) => e);
      expect(String(res)).toMatch(/sqlFailed|sqlTimeout/);
    } finally {
      await big.close();
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  });

  it("opening a table's rows starts the worker, so the first query does not wait for it", async () => {
    const fresh = new DatatablesService(t.platform, { queryTimeoutMs: 5000 });
    try {
      const replica = (fresh as unknown as { replica: { started?: { ready: Promise<void> } } }).replica;
      expect(replica.started).toBeUndefined();
      await fresh.rows({ userId: owner.id, tenantId: owner.tenantId, isAdmin: false } as Caller, tableId, 1, 10);
      expect(replica.started).toBeDefined();
      await replica.started?.ready;
      expect((await fresh.query(reader(), "select count(*) as n from stock")).rows).toEqual([[1]]);
    } finally {
      await fresh.close();
    }
  });
});
