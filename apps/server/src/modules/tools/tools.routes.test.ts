import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plugins } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { pageText } from "./standard-plugins.ts";
import { seedStandardPlugins, seedTools } from "./tools.seed.ts";

/** A local API the plugins call: echoes what it got, and a few special paths. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
let t: TestApp;
let api: http.Server;
let inner: http.Server;
let apiBase: string;
let innerPort: number;
const seen: Seen[] = [];
let owner: TestUser;
let other: TestUser;
let admin: TestUser;

function listen(handler: http.RequestListener) {
  return new Promise<http.Server>((resolve) => {
    const s = http.createServer(handler);
    s.listen(0, "127.0.0.1", () => resolve(s));
  });
}

beforeAll(async () => {
  inner = await listen((_req, res) => res.end("inner secret"));
  innerPort = (inner.address() as AddressInfo).port;
  api = await listen((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (req.url?.startsWith("/redirect-inward")) {
        res.writeHead(302, { location: `http://127.0.0.1:${innerPort}/` });
        return res.end();
      }
      if (req.url?.startsWith("/big")) return res.end("x".repeat(5000));
      if (req.url?.startsWith("/text")) return res.end("plain words");
      if (req.url?.startsWith("/fail")) {
        res.writeHead(500, { "content-type": "application/json" });
        return res.end('{"error":"down"}');
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          body,
          auth: req.headers.authorization ?? null,
          key: req.headers["x-api-key"] ?? null,
        }),
      );
    });
  });
  const port = (api.address() as AddressInfo).port;
  apiBase = `http://127.0.0.1:${port}`;
  // Only the test API is allow-listed: the "inner" server stands for a private service.
  t = await createTestApp({
    ADMIN_USERNAMES: "boss",
    NET_ALLOW_HOSTS: `127.0.0.1:${port}`,
    PLUGIN_RESPONSE_MAX_BYTES: "1024",
    SANDBOX_PY_WORKERS: "1",
  });
  owner = await createUser(t);
  other = await createUser(t);
  admin = await createUser(t, { username: "boss" });
}, 60_000);
afterAll(async () => {
  await t.close();
  api.close();
  inner.close();
});

const base = (over: Record<string, unknown> = {}) => ({
  pluginName: "天气查询",
  pluginDescription: "查询城市天气",
  pluginIcon: "3",
  pluginIconBackground: "#e8f3ff",
  pluginType: "HTTP",
  pluginCallableName: `weather_${Math.random().toString(36).slice(2, 8)}`,
  pluginTags: ["金融"],
  url: `${apiBase}/weather/{city}`,
  method: "GET",
  pathVariables: [{ name: "city", description: "city name", required: true }],
  parameters: [
    { name: "unit", options: ["c", "f"] },
    { name: "lang", fixedValue: "zh" },
  ],
  ...over,
});

async function call(user: TestUser | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown, lang = "en") {
  const res = await t.app.inject({
    method,
    url: `/aiagent_api${url}`,
    headers: { ...(user?.headers ?? {}), "accept-language": lang },
    payload: payload as object,
  });
  return { status: res.statusCode, body: res.json() };
}

async function create(user: TestUser, over: Record<string, unknown> = {}) {
  const r = await call(user, "POST", "/plugin", base(over));
  expect(r.body.msg, JSON.stringify(r.body)).toBe("created successfully");
  return r.body.data.id as string;
}

describe("plugin form rules (§5)", () => {
  it("refuses missing fields with the spec's messages, in order", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ pluginTags: [] }, "please choose or enter a group", "请选择或输入分组"],
      [{ pluginName: "" }, "please enter the plugin name", "请输入插件名称"],
      [{ pluginDescription: " " }, "please enter a description", "请输入描述"],
      [{ pluginCallableName: "" }, "please enter a call name", "请输入调用名称"],
      [{ pluginType: undefined }, "please choose the plugin type", "请选择插件类型"],
      [{ pluginIcon: "" }, "please choose an icon", "请选择图标"],
      [{ url: "ftp://x" }, "Please enter the correct URL address.", "请输入正确的URL地址。"],
    ];
    for (const [over, en, zh] of cases) {
      const r = await call(owner, "POST", "/plugin", base(over));
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(en);
      expect((await call(owner, "POST", "/plugin", base(over), "zh")).body.msg).toBe(zh);
    }
    expect((await call(owner, "POST", "/plugin", base({ pluginCallableName: "1bad name" }))).status).toBe(400);
    expect((await call(owner, "POST", "/plugin", base({ pluginType: "JAVASCRIPT", code: "" }))).status).toBe(400);
    expect((await call(null, "POST", "/plugin", base())).status).toBe(403);
  });

  it("keeps callable names unique per owner (not across owners)", async () => {
    await create(owner, { pluginCallableName: "same_name" });
    const dup = await call(owner, "POST", "/plugin", base({ pluginCallableName: "Same_Name" }));
    expect(dup.status).toBe(400);
    await create(other, { pluginCallableName: "same_name" });
    // at the same moment: the unique index decides, and no request fails with a 500
    const racing = await Promise.all([1, 2, 3].map(() => call(owner, "POST", "/plugin", base({ pluginCallableName: "raced_name" }))));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 400, 400]);
  });

  it("generates callable names: a pinyin slug, unique for the owner", async () => {
    const r = await call(owner, "POST", "/plugin/callable-name", { pluginName: "股票 行情查询", pluginDescription: "" });
    expect(r.body.data).toBe("gu_piao_hang_qing_cha_xun");
    await create(owner, { pluginCallableName: r.body.data });
    const again = await call(owner, "POST", "/plugin/callable-name", { pluginName: "股票 行情查询" });
    expect(again.body.data).toBe("gu_piao_hang_qing_cha_xun_2");
    const fromDescription = await call(owner, "POST", "/plugin/callable-name", { pluginName: "", pluginDescription: "Send SMS" });
    expect(fromDescription.body.data).toBe("send_sms");
    const none = await call(owner, "POST", "/plugin/callable-name", { pluginName: "", pluginDescription: "" });
    expect(none.body.msg).toBe("please enter the plugin name or introduction");
  });

  it("lists groups: the §9 industries and the caller's own", async () => {
    await create(owner, { pluginTags: ["我的分组"] });
    const r = await call(owner, "GET", "/plugin/groups");
    expect(r.body.data).toEqual(expect.arrayContaining(["证券", "期货", "我的分组"]));
    expect((await call(other, "GET", "/plugin/groups")).body.data).not.toContain("我的分组");
  });
});

describe("list, read, edit, delete", () => {
  it("lists with filters, page size 20; logged-out visitors get an empty list", async () => {
    const js = await create(owner, { pluginType: "JAVASCRIPT", pluginName: "代码工具", code: "function main(p) { return p; }" });
    const page = await call(owner, "POST", "/plugin/page", {
      pageNumber: 0,
      pageSize: 20,
      pluginTypes: 1,
      pluginStatus: 1,
      createdByMe: true,
    });
    expect(page.body.code).toBe(200);
    expect(page.body.data.totalElements).toBeGreaterThan(1);
    expect(page.body.data.content.every((p: { createdBy: string }) => p.createdBy === owner.username)).toBe(true);
    const byName = await call(owner, "POST", "/plugin/page", { pluginName: "代码" });
    expect(byName.body.data.content.map((p: { id: string }) => p.id)).toEqual([js]);
    expect((await call(owner, "POST", "/plugin/page", { pluginTypes: 3 })).body.data.totalElements).toBe(0);
    expect((await call(owner, "POST", "/plugin/page", { pluginStatus: 2 })).body.data.totalElements).toBe(0);
    const future = await call(owner, "POST", "/plugin/page", { timeRangeStart: "2999-01-01", timeRangeEnd: "2999-01-02" });
    expect(future.body.data.totalElements).toBe(0);
    const anon = await call(null, "POST", "/plugin/page", {});
    expect(anon.body).toMatchObject({ code: 200, data: { content: [], totalElements: 0, totalPages: 0 } });
    const others = await call(other, "POST", "/plugin/page", {});
    expect(others.body.data.content.map((p: { id: string }) => p.id)).not.toContain(js);
    const all = await call(admin, "POST", "/plugin/page", {});
    expect(all.body.data.content.map((p: { id: string }) => p.id)).toContain(js);
  });

  it("others' tools are not found; administrators and the creator edit; MCP and built-in tools are never edited", async () => {
    const id = await create(owner);
    expect((await call(other, "GET", `/plugin/${id}`)).status).toBe(404);
    expect((await call(other, "PUT", `/plugin/${id}`, base())).status).toBe(404);
    expect((await call(other, "DELETE", `/plugin/${id}`)).status).toBe(404);
    const got = await call(owner, "GET", `/plugin/${id}`);
    expect(got.body.data).toMatchObject({
      pluginName: "天气查询",
      pluginStatus: "C00_Unreleased",
      standard: false,
      editable: true,
      createdBy: owner.username,
    });
    const edited = await call(admin, "PUT", `/plugin/${id}`, base({ pluginName: "天气查询2" }));
    expect(edited.body.data.pluginName).toBe("天气查询2");
    await t.platform.db.update(plugins).set({ pluginType: "MCP" }).where(eq(plugins.id, id));
    const mcp = await call(owner, "PUT", `/plugin/${id}`, base());
    expect(mcp).toMatchObject({ status: 400, body: { msg: "MCP and built-in plugins cannot be modified" } });
    expect((await call(owner, "PUT", `/plugin/${id}`, base(), "zh")).body.msg).toBe("MCP和内置插件不允许修改");
    const std = await create(admin);
    await t.platform.db.update(plugins).set({ standard: true }).where(eq(plugins.id, std));
    expect((await call(owner, "GET", `/plugin/${std}`)).body.data).toMatchObject({ standard: true, editable: false });
    expect((await call(admin, "PUT", `/plugin/${std}`, base())).body.msg).toBe("MCP and built-in plugins cannot be modified");
    expect((await call(owner, "DELETE", `/plugin/${std}`)).status).toBe(400);
    const del = await call(owner, "DELETE", `/plugin/${id}`);
    expect(del.body).toMatchObject({ code: 200, msg: "deleted successfully" });
    expect((await call(owner, "GET", `/plugin/${id}`)).status).toBe(404);
  });
});

describe("HTTP plugins: test run and publish", () => {
  it("sends path variables, query (options and fixed values), and refuses bad arguments", async () => {
    const id = await create(owner);
    const r = await call(owner, "POST", `/plugin/${id}/test`, { params: { city: "北京 市", unit: "c", lang: "en" } });
    expect(r.body.data).toMatchObject({ ok: true, status: 200, error: null });
    expect(r.body.data.result.url).toBe("/weather/%E5%8C%97%E4%BA%AC%20%E5%B8%82?unit=c&lang=zh");
    expect(r.body.data.durationMs).toBeGreaterThanOrEqual(0);
    const bad = await call(owner, "POST", `/plugin/${id}/test`, { params: { city: "x", unit: "k" } });
    expect(bad.body.data).toMatchObject({ ok: false, error: "unit must be one of: c, f" });
    const missing = await call(owner, "POST", `/plugin/${id}/test`, { params: {} });
    expect(missing.body.data).toMatchObject({ ok: false, error: "missing required parameter: city" });
  });

  it("sends bodies by content type: json, form, multipart, raw; headers and numbers", async () => {
    const body = [
      { name: "q", required: true },
      { name: "n", type: "number" },
    ];
    const cases: [string, Record<string, unknown>, (s: Seen) => void][] = [
      ["json", {}, (s) => expect(JSON.parse(s.body)).toEqual({ q: "hi", n: 3 })],
      ["form", {}, (s) => expect(s.body).toBe("q=hi&n=3")],
      [
        "multipart",
        {},
        (s) => {
          expect(s.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
          expect(s.body).toContain('name="q"');
        },
      ],
      ["raw", { rawBody: "<q>{{q}}</q><n>{{ n }}</n>" }, (s) => expect(s.body).toBe("<q>hi</q><n>3</n>")],
    ];
    for (const [contentType, over, check] of cases) {
      const id = await create(owner, {
        url: `${apiBase}/echo`,
        method: "POST",
        contentType,
        body,
        pathVariables: [],
        parameters: [],
        headers: [{ name: "X-Trace", fixedValue: "t-1" }],
        ...over,
      });
      seen.length = 0;
      const r = await call(owner, "POST", `/plugin/${id}/test`, { params: { q: "hi", n: "3" } });
      expect(r.body.data.ok, JSON.stringify(r.body)).toBe(true);
      expect(seen[0].headers["x-trace"]).toBe("t-1");
      check(seen[0]);
    }
  });

  it("keeps API keys encrypted, sends them, and never returns them", async () => {
    const id = await create(owner, {
      url: `${apiBase}/echo`,
      pathVariables: [],
      parameters: [],
      auth: { type: "apiKey", in: "header", name: "X-Api-Key" },
      authSecret: "sk-plugin-secret",
    });
    const [row] = await t.platform.db.select().from(plugins).where(eq(plugins.id, id));
    expect(row.authSecretEnc).toBeTruthy();
    expect(row.authSecretEnc).not.toContain("sk-plugin-secret");
    const got = await call(owner, "GET", `/plugin/${id}`);
    expect(got.body.data.hasAuthSecret).toBe(true);
    expect(JSON.stringify(got.body)).not.toContain("sk-plugin-secret");
    const r = await call(owner, "POST", `/plugin/${id}/test`, { params: {} });
    expect(r.body.data.result.key).toBe("sk-plugin-secret");
    const q = await create(owner, {
      url: `${apiBase}/echo`,
      pathVariables: [],
      parameters: [],
      auth: { type: "apiKey", in: "query", name: "key" },
      authSecret: "sk-query",
    });
    const rq = await call(owner, "POST", `/plugin/${q}/test`, { params: {} });
    expect(rq.body.data.request.url).toContain("key=******");
    expect(rq.body.data.result.url).toContain("key=sk-query");
  });

  it("parses JSON answers, keeps text, caps the size and reports HTTP failures", async () => {
    const mk = (path: string) => create(owner, { url: `${apiBase}${path}`, pathVariables: [], parameters: [] });
    expect((await call(owner, "POST", `/plugin/${await mk("/text")}/test`, { params: {} })).body.data.result).toBe("plain words");
    const big = (await call(owner, "POST", `/plugin/${await mk("/big")}/test`, { params: {} })).body.data;
    expect(big.result).toHaveLength(1024);
    const fail = (await call(owner, "POST", `/plugin/${await mk("/fail")}/test`, { params: {} })).body.data;
    expect(fail).toMatchObject({ ok: false, status: 500, error: "HTTP 500", result: { error: "down" } });
  });

  it("publishes only after a passed test of the current definition", async () => {
    const id = await create(owner);
    const early = await call(owner, "POST", `/plugin/${id}/publish`);
    expect(early).toMatchObject({ status: 400, body: { msg: "please debug successfully before releasing" } });
    await call(owner, "POST", `/plugin/${id}/test`, { params: {} }); // fails: city missing
    expect((await call(owner, "POST", `/plugin/${id}/publish`)).status).toBe(400);
    await call(owner, "POST", `/plugin/${id}/test`, { params: { city: "sh" } });
    expect((await call(owner, "GET", `/plugin/${id}`)).body.data.testSucceeded).toBe(true);
    // another user's test (admin) of an edited definition does not count for a stale one
    await call(owner, "PUT", `/plugin/${id}`, base({ url: `${apiBase}/v2/{city}` }));
    expect((await call(owner, "POST", `/plugin/${id}/publish`)).status).toBe(400);
    await call(owner, "POST", `/plugin/${id}/test`, { params: { city: "sh" } });
    const pub = await call(owner, "POST", `/plugin/${id}/publish`);
    expect(pub.body.data.pluginStatus).toBe("C90_Released");
    // an edit that changes what runs unpublishes it; a rename does not
    const renamed = await call(owner, "PUT", `/plugin/${id}`, base({ url: `${apiBase}/v2/{city}`, pluginName: "新名字" }));
    expect(renamed.body.data.pluginStatus).toBe("C90_Released");
    const changed = await call(owner, "PUT", `/plugin/${id}`, base({ url: `${apiBase}/v3/{city}` }));
    expect(changed.body.data.pluginStatus).toBe("C00_Unreleased");
  });
});

describe("code plugins", () => {
  it("runs JavaScript main(params) in the sandbox", async () => {
    const id = await create(owner, {
      pluginType: "JAVASCRIPT",
      code: "function main(params) { console.log('got', params.a); return { sum: params.a + params.b }; }",
      parameters: [
        { name: "a", type: "number", required: true },
        { name: "b", type: "number", fixedValue: "10" },
      ],
      pathVariables: [],
    });
    const r = await call(owner, "POST", `/plugin/${id}/test`, { params: { a: 5 } });
    expect(r.body.data).toMatchObject({ ok: true, result: { sum: 15 }, status: 0, error: null, logs: ["got 5"] });
    const escaping = await create(owner, {
      pluginType: "JAVASCRIPT",
      code: "function main() { return this.constructor.constructor('return process')().env; }",
      pathVariables: [],
      parameters: [],
    });
    expect((await call(owner, "POST", `/plugin/${escaping}/test`, { params: {} })).body.data.ok).toBe(false);
  });

  it("lets JavaScript fetch only when enabled, only to listed hosts, only through safe fetch", async () => {
    const code = `async function main(p) { const r = await fetch(p.url); return await r.json(); }`;
    const params = [{ name: "url" }];
    const off = await create(owner, { pluginType: "JAVASCRIPT", code, parameters: params, pathVariables: [] });
    expect((await call(owner, "POST", `/plugin/${off}/test`, { params: { url: `${apiBase}/echo` } })).body.data.ok).toBe(false);
    const on = await create(owner, {
      pluginType: "JAVASCRIPT",
      code,
      parameters: params,
      pathVariables: [],
      netEnabled: true,
      netAllowHosts: ["127.0.0.1"],
    });
    const good = await call(owner, "POST", `/plugin/${on}/test`, { params: { url: `${apiBase}/echo` } });
    expect(good.body.data).toMatchObject({ ok: true, result: { method: "GET", url: "/echo" } });
    // listed by the owner but private and not on the administrator's allow-list: refused at connect
    const inward = await call(owner, "POST", `/plugin/${on}/test`, { params: { url: `http://127.0.0.1:${innerPort}/` } });
    expect(inward.body.data.ok).toBe(false);
    expect(JSON.stringify(inward.body)).not.toContain("inner secret");
    const elsewhere = await call(owner, "POST", `/plugin/${on}/test`, { params: { url: "http://example.com/" } });
    expect(elsewhere.body.data.error).toMatch(/host not allowed/);
  });

  it("lets Python fetch only when enabled, only to listed hosts, only through safe fetch", async () => {
    const code = [
      "def main(p):",
      "    r = fetch(p['url'], 'POST', {'x-from': 'py'}, json_body={'n': 1})",
      "    return {'status': r.status, 'ok': r.ok, 'echo': r.json()}",
    ].join("\n");
    const params = [{ name: "url" }];
    const off = await create(owner, { pluginType: "PYTHON3", code, parameters: params, pathVariables: [] });
    const refused = await call(owner, "POST", `/plugin/${off}/test`, { params: { url: `${apiBase}/echo` } });
    expect(refused.body.data).toMatchObject({ ok: false, error: expect.stringMatching(/network access is not enabled/) });
    const on = await create(owner, {
      pluginType: "PYTHON3",
      code,
      parameters: params,
      pathVariables: [],
      netEnabled: true,
      netAllowHosts: ["127.0.0.1"],
    });
    const good = await call(owner, "POST", `/plugin/${on}/test`, { params: { url: `${apiBase}/echo` } });
    expect(good.body.data).toMatchObject({
      ok: true,
      result: { status: 200, ok: true, echo: { method: "POST", url: "/echo", body: '{"n": 1}' } },
    });
    expect(seen.at(-1)?.headers["x-from"]).toBe("py");
    // listed by the owner but private and not on the administrator's allow-list: refused at connect
    for (const url of [`http://127.0.0.1:${innerPort}/`, `${apiBase}/redirect-inward`]) {
      const inward = await call(owner, "POST", `/plugin/${on}/test`, { params: { url } });
      expect(inward.body.data.ok, url).toBe(false);
      expect(JSON.stringify(inward.body)).not.toContain("inner secret");
    }
    const elsewhere = await call(owner, "POST", `/plugin/${on}/test`, { params: { url: "http://example.com/" } });
    expect(elsewhere.body.data.error).toMatch(/host not allowed/);
    // The stdlib's own clients stay unavailable: fetch is the only way out.
    const urllib = await create(owner, {
      pluginType: "PYTHON3",
      code: "import urllib.request\ndef main(p):\n    return urllib.request.urlopen('http://127.0.0.1/').read()",
      pathVariables: [],
      parameters: [],
      netEnabled: true,
      netAllowHosts: ["127.0.0.1"],
    });
    expect((await call(owner, "POST", `/plugin/${urllib}/test`, { params: {} })).body.data.error).toMatch(/not available in the sandbox/);
  }, 180_000);

  it("runs Python main(params) in Pyodide", async () => {
    const id = await create(owner, {
      pluginType: "PYTHON3",
      code: "import json\ndef main(params):\n    return {'upper': params['s'].upper()}",
      parameters: [{ name: "s", required: true }],
      pathVariables: [],
    });
    const r = await call(owner, "POST", `/plugin/${id}/test`, { params: { s: "abc" } });
    expect(r.body.data).toMatchObject({ ok: true, result: { upper: "ABC" } });
    const read = await create(owner, {
      pluginType: "PYTHON3",
      code: "def main(params):\n    return open('/etc/passwd').read()",
      pathVariables: [],
      parameters: [],
    });
    const denied = await call(owner, "POST", `/plugin/${read}/test`, { params: {} });
    expect(denied.body.data.ok).toBe(false);
    expect(JSON.stringify(denied.body)).not.toContain("root:");
  }, 180_000);
});

describe("demo data", () => {
  it("seeds a published JavaScript plugin that works offline", async () => {
    const demo = await createUser(t);
    await seedTools(t.platform.db, { users: { member: demo.id } });
    const list = await call(demo, "POST", "/plugin/page", { createdByMe: true });
    const tax = list.body.data.content[0];
    expect(tax).toMatchObject({ pluginName: "个税计算器", pluginType: "JAVASCRIPT", pluginStatus: "C90_Released", testSucceeded: true });
    const r = await call(demo, "POST", `/plugin/${tax.id}/test`, { params: { salary: 20000 } });
    expect(r.body.data).toMatchObject({ ok: true, result: { taxable: 15000, rate: 0.2, tax: 1590, afterTax: 18410 } });
  });
});

describe("SSRF: user URLs never reach private addresses", () => {
  const inwardUrls = () => [
    `http://127.0.0.1:${innerPort}/`,
    `http://127.1:${innerPort}/`,
    `http://2130706433:${innerPort}/`,
    `http://0x7f000001:${innerPort}/`,
    `http://[::ffff:127.0.0.1]:${innerPort}/`,
    `http://[::1]:${innerPort}/`,
    `http://localhost:${innerPort}/`,
    "http://10.0.0.1/",
    "http://192.168.1.1/",
    "http://172.16.0.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/",
  ];

  it("refuses private, loopback and link-local URLs at save", async () => {
    for (const url of inwardUrls()) {
      const r = await call(owner, "POST", "/plugin", base({ url, pathVariables: [] }));
      expect(r.status, url).toBe(400);
      expect(r.body.msg, url).toMatch(/may not be reached/);
    }
  });

  it("refuses them at connect time too (a stored URL, a DNS name resolving inward, a redirect inward)", async () => {
    const id = await create(owner, { url: `${apiBase}/echo`, pathVariables: [], parameters: [] });
    const [row] = await t.platform.db.select().from(plugins).where(eq(plugins.id, id));
    for (const url of [...inwardUrls().slice(0, 7), `${apiBase}/redirect-inward`]) {
      await t.platform.db
        .update(plugins)
        .set({ definition: { ...row.definition, url } })
        .where(eq(plugins.id, id));
      const r = await call(owner, "POST", `/plugin/${id}/test`, { params: {} });
      expect(r.body.data.ok, url).toBe(false);
      expect(r.body.data.error, url).toMatch(/refused|blocked/);
      expect(JSON.stringify(r.body)).not.toContain("inner secret");
    }
  });
});

describe("standard (built-in) tools", () => {
  it("are listed to everyone, published, run, and are never edited or deleted", async () => {
    await seedStandardPlugins(t.platform.db, admin.id);
    await seedStandardPlugins(t.platform.db, admin.id); // a second run adds nothing
    const list = await call(other, "POST", "/plugin/page", { pluginTypes: 1, pageSize: 100 });
    // (an earlier test marked one of its own standard too: only the seeded ones are looked at)
    const seeded = ["calculator", "current_time", "web_fetch"];
    const standard = (list.body.data.content as { id: string; standard: boolean; pluginCallableName: string }[]).filter(
      (p) => p.standard && seeded.includes(p.pluginCallableName),
    );
    expect(standard.map((p) => p.pluginCallableName).sort()).toEqual(seeded);
    for (const p of standard) expect(p).toMatchObject({ pluginStatus: "C90_Released", editable: false, testSucceeded: true });
    // "created by me" leaves them out
    const mine = await call(other, "POST", "/plugin/page", { createdByMe: true });
    expect((mine.body.data.content as { standard: boolean }[]).some((p) => p.standard)).toBe(false);
    // what the studio's picker asks for: the caller's own and the standard ones (an administrator's too: not everyone's)
    for (const who of [other, admin]) {
      const bindable = await call(who, "POST", "/plugin/page", { createdByMe: true, includeStandard: true, pluginTypes: 1, pageSize: 100 });
      const rows = bindable.body.data.content as { standard: boolean; createdBy: string }[];
      expect(rows.filter((p) => p.standard).length).toBeGreaterThanOrEqual(3);
      expect(rows.every((p) => p.standard || p.createdBy === who.username)).toBe(true);
    }
    const byName = Object.fromEntries(standard.map((p) => [p.pluginCallableName, p]));

    const calc = await call(other, "POST", `/plugin/${byName.calculator.id}/test`, { params: { expression: "(3 + 4) * 2 ^ 2" } });
    expect(calc.body.data).toMatchObject({ ok: true, result: { result: 28 } });
    expect(
      (await call(other, "POST", `/plugin/${byName.calculator.id}/test`, { params: { expression: "process.exit()" } })).body.data.ok,
    ).toBe(false);
    const time = await call(other, "POST", `/plugin/${byName.current_time.id}/test`, { params: {} });
    expect(time.body.data.result.shanghai).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(Math.abs(Date.parse(time.body.data.result.iso) - Date.now())).toBeLessThan(60_000);

    const page = await call(other, "POST", `/plugin/${byName.web_fetch.id}/test`, { params: { url: `${apiBase}/text` } });
    expect(page.body.data).toMatchObject({ ok: true, result: { status: 200, text: "plain words" } });
    // The reader goes through safe fetch: inward addresses and redirects stay refused.
    for (const url of [
      `http://127.0.0.1:${innerPort}/`,
      `http://0x7f000001:${innerPort}/`,
      `${apiBase}/redirect-inward`,
      "file:///etc/passwd",
    ]) {
      const r = await call(other, "POST", `/plugin/${byName.web_fetch.id}/test`, { params: { url } });
      expect(r.body.data.ok, url).toBe(false);
      expect(JSON.stringify(r.body), url).not.toMatch(/inner secret|root:/);
    }

    for (const p of standard) {
      const put = await call(admin, "PUT", `/plugin/${p.id}`, base());
      expect(put.body.msg).toBe("MCP and built-in plugins cannot be modified");
      expect((await call(admin, "DELETE", `/plugin/${p.id}`)).status).toBe(400);
      expect((await call(admin, "POST", `/plugin/${p.id}/publish`)).status).toBe(400);
    }
  });

  it("reads HTML pages as their title and text", () => {
    const { title, text } = pageText(
      "<html><head><title>标题 &amp; 副题</title><style>p{}</style></head><body><script>evil()</script><p>第一段</p><p>a&nbsp;&lt;b&gt; &#20013;</p></body></html>",
    );
    expect(title).toBe("标题 & 副题");
    expect(text).toBe("标题 & 副题\n第一段\na <b> 中");
  });
});
