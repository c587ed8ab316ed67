import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
let owner: TestUser;
let colleague: TestUser;
let stranger: TestUser;
let tableId: string;

const call = (user: TestUser | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown, lang = "zh") =>
  t.app.inject({ method, url: `/aiagent_api${url}`, payload: payload as never, headers: { ...(user?.headers ?? {}), lang } });

function multipart(name: string, data: Buffer) {
  const boundary = "----agentfairtest";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

const query = (user: TestUser, sql: string, lang = "zh") => call(user, "POST", "/datatable/query", { sql }, lang);

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { domain: "dtacme" });
  colleague = await createUser(t, { domain: "dtacme" });
  stranger = await createUser(t, { domain: "dtother" });
  const res = await call(owner, "POST", "/datatable", {
    name: "orders",
    introduction: "订单",
    fields: [
      { name: "customer", label: "客户", type: "text", required: true },
      { name: "amount", label: "金额", type: "number" },
      { name: "qty", label: "数量", type: "integer" },
      { name: "day", label: "日期", type: "date" },
      { name: "paid", label: "已付", type: "boolean" },
    ],
  });
  expect(res.statusCode, res.body).toBe(200);
  tableId = res.json().data.id;
  // The other tenant has a table too: never readable from the first.
  await call(stranger, "POST", "/datatable", { name: "secrets", fields: [{ name: "v", type: "text" }] });
  await call(stranger, "POST", "/datatable", { name: "orders", fields: [{ name: "customer", type: "text" }] });
}, 60_000);
afterAll(() => t.close());

describe("data tables", () => {
  it("creates, lists and refuses a duplicate name or bad fields", async () => {
    const page = await call(owner, "POST", "/datatable/page", {});
    expect(page.json().data.list.map((x: { name: string }) => x.name)).toEqual(["orders"]);
    const dup = await call(owner, "POST", "/datatable", { name: "Orders", fields: [{ name: "a", type: "text" }] });
    expect(dup.statusCode).toBe(400);
    const bad = await call(owner, "POST", "/datatable", { name: "x; drop table users", fields: [{ name: "a", type: "text" }] });
    expect(bad.statusCode).toBe(400);
    const reserved = await call(owner, "POST", "/datatable", { name: "r1", fields: [{ name: "_id", type: "text" }] });
    expect(reserved.statusCode).toBe(400);
    const dupField = await call(owner, "POST", "/datatable", {
      name: "r2",
      fields: [
        { name: "a", type: "text" },
        { name: "a", type: "number" },
      ],
    });
    expect(dupField.json().msg).toBe("字段名重复：a");
  });

  it("adds, edits, browses and deletes rows with type checks", async () => {
    const add = await call(owner, "POST", `/datatable/${tableId}/rows`, {
      customer: "张三",
      amount: "120.5",
      qty: 2,
      day: "2024-05-01",
      paid: "是",
    });
    expect(add.statusCode, add.body).toBe(200);
    const missing = await call(owner, "POST", `/datatable/${tableId}/rows`, { amount: 1 });
    expect(missing.json().msg).toContain("客户 为必填项");
    const badDate = await call(owner, "POST", `/datatable/${tableId}/rows`, { customer: "x", day: "2024-02-30" }, "en");
    expect(badDate.json().msg).toContain('"2024-02-30" is not a valid date');
    const unknown = await call(owner, "POST", `/datatable/${tableId}/rows`, { customer: "x", nope: 1 });
    expect(unknown.statusCode).toBe(400);
    const rows = await call(owner, "POST", `/datatable/${tableId}/rows/page`, {});
    const [first] = rows.json().data.list;
    expect(first).toMatchObject({ customer: "张三", amount: 120.5, qty: 2, day: "2024-05-01", paid: true });
    const edit = await call(owner, "PUT", `/datatable/${tableId}/rows/${first._id}`, { amount: 99 });
    expect(edit.statusCode).toBe(200);
    const del = await call(owner, "DELETE", `/datatable/${tableId}/rows/${first._id}`);
    expect(del.statusCode).toBe(200);
    expect((await call(owner, "POST", `/datatable/${tableId}/rows/page`, {})).json().data.total).toBe(0);
  });

  it("imports csv and xlsx, reporting rejected rows", async () => {
    const csv =
      "客户,amount,qty,day,paid\n李四,300,3,2024-06-01,true\n,5,1,2024-06-02,false\n王五,abc,1,2024-06-03,1\n赵六,50,2,2024/06/04,否\n";
    const up = multipart("orders.csv", Buffer.from(csv));
    const res = await t.app.inject({
      method: "POST",
      url: `/aiagent_api/datatable/${tableId}/import`,
      payload: up.body,
      headers: { ...owner.headers, ...up.headers },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.imported).toBe(2);
    expect(res.json().data.rejected.map((r: { row: number }) => r.row)).toEqual([3, 4]);
    expect(res.json().data.rejected[1].reason).toContain("“abc”不是有效的数字");

    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("s");
    sheet.addRow(["customer", "amount", "qty", "day", "paid"]);
    sheet.addRow(["孙七", 1000, 10, new Date(Date.UTC(2024, 6, 1)), true]);
    sheet.addRow(["周八", 10, 1.5, "2024-07-02", false]);
    const x = multipart("orders.xlsx", Buffer.from(await book.xlsx.writeBuffer()));
    const res2 = await t.app.inject({
      method: "POST",
      url: `/aiagent_api/datatable/${tableId}/import`,
      payload: x.body,
      headers: { ...owner.headers, ...x.headers },
    });
    expect(res2.json().data).toMatchObject({ imported: 1, rejected: [{ row: 3 }] });
    const txt = multipart("orders.txt", Buffer.from("a"));
    const res3 = await t.app.inject({
      method: "POST",
      url: `/aiagent_api/datatable/${tableId}/import`,
      payload: txt.body,
      headers: { ...owner.headers, ...txt.headers },
    });
    expect(res3.json().msg).toBe("请上传 xlsx 或 csv 文件");
  });

  it("alters the physical table when fields change", async () => {
    const res = await call(owner, "PUT", "/datatable", {
      id: tableId,
      name: "orders",
      introduction: "订单表",
      fields: [
        { name: "customer", label: "客户", type: "text", required: true },
        { name: "amount", label: "金额", type: "number" },
        { name: "qty", label: "数量", type: "number" },
        { name: "day", label: "日期", type: "date" },
        { name: "paid", label: "已付", type: "boolean" },
        { name: "region", label: "地区", type: "text" },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const q = await query(owner, "select region, qty from orders limit 1");
    expect(q.json().data.columns).toEqual(["region", "qty"]);
    const bad = await call(owner, "PUT", "/datatable", { ...res.json().data, fields: [{ name: "customer", type: "integer" }] });
    expect(bad.json().msg).toContain("无法转换");
  });

  it("lists an administrator's own tables only, the ones their SQL reads", async () => {
    const admin = await createUser(t, { username: "admin" });
    const member = await createUser(t);
    await call(member, "POST", "/datatable", { name: "members_only", fields: [{ name: "v", type: "text" }] });
    const list = (await call(admin, "POST", "/datatable/page", {})).json().data;
    expect(list.list.map((x: { name: string }) => x.name)).not.toContain("members_only");
    expect((await query(admin, "select * from members_only")).json().msg).toContain("members_only");
  });

  it("keeps tables to their owner; another tenant sees nothing", async () => {
    expect((await call(stranger, "POST", `/datatable/${tableId}/rows/page`, {})).statusCode).toBe(404);
    expect((await call(colleague, "DELETE", `/datatable/${tableId}`)).statusCode).toBe(404);
    expect((await call(null, "POST", "/datatable/page", {})).statusCode).toBe(403);
  });
});

describe("the read-only query guard", () => {
  it("answers a SELECT over the tenant's tables by their names (a colleague too)", async () => {
    const res = await query(colleague, "select customer, sum(amount) as total from orders group by customer order by total desc");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.columns).toEqual(["customer", "total"]);
    expect(res.json().data.rows[0]).toEqual(["孙七", 1000]);
    const cte = await query(owner, "with big as (select * from orders where amount > 100) select count(*) as n from big");
    expect(cte.json().data.rows).toEqual([[2]]);
    const tidy = await query(owner, "select replace(replace(customer, '七', ''), '孙', 'S') as c from orders where customer = '孙七'");
    expect(tidy.json().data.rows).toEqual([["S"]]);
  });

  const refused: [string, string][] = [
    ["DROP TABLE orders", "只允许执行一条只读的 SELECT 查询"],
    ["SELECT 1; DELETE FROM orders", "只允许执行一条只读的 SELECT 查询"],
    ["select pg_sleep(600)", "不允许使用该函数：pg_sleep"],
    ["select pg_read_file('/etc/passwd')", "不允许使用该函数：pg_read_file"],
    ["COPY orders TO '/tmp/x'", "SQL语法错误"],
    ["with d as (delete from orders returning *) select * from d", "只允许执行一条只读的 SELECT 查询"],
    ["select * from secrets", "不允许访问：secrets"],
    ["select * from information_schema.tables", "不允许访问：information_schema.tables"],
    ["select * from pg_catalog.pg_authid", "不允许访问"],
    ["select * from pg_class", "不允许访问：pg_class"],
    ["select set_config('statement_timeout', '0', false)", "set_config"],
    ["select dblink('host=127.0.0.1', 'select 1')", "dblink"],
    ["select lo_import('/etc/passwd')", "lo_import"],
    ["select * from generate_series(1, 100000000)", "generate_series"],
    ["select 'pg_authid'::regclass", "regclass"],
    ["with recursive r(n) as (select 1 union all select n + 1 from r) select * from r", "递归"],
    ["select * from orders for update", "只允许执行一条只读的 SELECT 查询"],
    ["select * from datatables.orders", "不允许访问"],
    ["insert into orders(customer) values ('x')", "只允许执行一条只读的 SELECT 查询"],
    ["select $1", "参数占位符"],
    ["select replace(replace(customer, 'a', 'aaaa'), 'a', 'aaaa') from orders", "替换内容不能长于查找内容"],
    ["select replace(customer, customer, 'x') from orders", "replace 的查找和替换内容须为文字"],
    [`select count(*) from ${Array.from({ length: 14 }, (_, i) => `orders o${i}`).join(", ")}`, "查询过于复杂"],
  ];
  for (const [sql, msg] of refused) {
    it(`refuses: ${sql}`, async () => {
      const res = await query(owner, sql);
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toContain(msg);
    });
  }
  it("speaks English when asked", async () => {
    expect((await query(owner, "select pg_sleep(600)", "en")).json().msg).toBe("this function is not allowed: pg_sleep");
  });
  it("refuses another tenant's table of the same name by reading only its own", async () => {
    const res = await query(stranger, "select count(*) as n from orders");
    expect(res.json().data.rows).toEqual([[0]]);
  });
  it("on the public platform reads only the asker's own tables; a name is unique per user there", async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const wages = await call(alice, "POST", "/datatable", { name: "wages", fields: [{ name: "amount", type: "number" }] });
    expect(wages.statusCode, wages.body).toBe(200);
    await call(alice, "POST", `/datatable/${wages.json().data.id}/rows`, { amount: 9000 });
    expect((await query(alice, "select count(*) as n from wages")).json().data.rows).toEqual([[1]]);
    const refused = await query(bob, "select * from wages");
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe("只能查询你可读的数据表，不允许访问：wages");
    const own = await call(bob, "POST", "/datatable", { name: "wages", fields: [{ name: "amount", type: "number" }] });
    expect(own.statusCode, own.body).toBe(200);
    expect((await query(bob, "select count(*) as n from wages")).json().data.rows).toEqual([[0]]);
  });
  it("reports a database error without the physical names", async () => {
    const res = await query(owner, "select nope from orders");
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain("查询失败");
    expect(res.json().msg).not.toMatch(/t_[0-9a-f]{32}/);
  });
});
