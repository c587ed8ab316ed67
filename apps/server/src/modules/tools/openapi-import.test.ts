import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

const fixture = (name: string) => fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

let t: TestApp;
let docs: http.Server;
let inner: http.Server;
let docsBase: string;
let innerBase: string;
let user: TestUser;

const listen = (handler: http.RequestListener) =>
  new Promise<http.Server>((resolve) => {
    const s = http.createServer(handler);
    s.listen(0, "127.0.0.1", () => resolve(s));
  });

beforeAll(async () => {
  inner = await listen((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"type":"object","properties":{"innerSecret":{"type":"string"}}}');
  });
  innerBase = `http://127.0.0.1:${(inner.address() as AddressInfo).port}`;
  docs = await listen((req, res) => {
    if (req.url === "/petstore.yaml") return res.end(fixture("petstore-openapi3.yaml"));
    if (req.url === "/schemas/pet.json") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end('{"type":"object","required":["nick"],"properties":{"nick":{"type":"string"},"age":{"type":"integer"}}}');
    }
    if (req.url === "/moved") {
      res.writeHead(302, { location: `${innerBase}/schema.json` });
      return res.end();
    }
    res.writeHead(404);
    res.end();
  });
  docsBase = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
  t = await createTestApp({ NET_ALLOW_HOSTS: new URL(docsBase).host });
  user = await createUser(t);
}, 60_000);
afterAll(async () => {
  await t.close();
  docs.close();
  inner.close();
});

async function parse(openApiSchemaOrUrl: string, baseUrl = "https://api.example.com", lang = "en") {
  const res = await t.app.inject({
    method: "POST",
    url: "/aiagent_api/plugin/openapi/parse",
    headers: { ...user.headers, "accept-language": lang },
    payload: { openApiSchemaOrUrl, baseUrl },
  });
  return res.json();
}
type P = {
  pluginName: string;
  pluginCallableName: string;
  url: string;
  method: string;
  contentType: string;
  parameters: { name: string; required: boolean; options: string[]; type: string }[];
  headers: { name: string }[];
  body: { name: string; required: boolean; options: string[]; type: string }[];
  pathVariables: { name: string; required: boolean; type: string }[];
  auth: { type: string; in: string; name: string };
};
const byName = (plugins: P[], callable: string) => {
  const p = plugins.find((x) => x.pluginCallableName === callable);
  if (!p) throw new Error(`no ${callable} in ${plugins.map((x) => x.pluginCallableName).join(", ")}`);
  return p;
};

describe("OpenAPI import: parse", () => {
  it("asks for the document and the baseUrl with the spec's messages", async () => {
    expect((await parse("", "https://x.example")).msg).toBe("please enter");
    expect((await parse("", "https://x.example", "zh")).msg).toBe("请输入");
    expect((await parse(fixture("refs-in-parameters.json"), "")).msg).toBe("please enter baseUrl");
    expect((await parse(fixture("refs-in-parameters.json"), "", "zh")).msg).toBe("请输入baseUrl");
    const junk = await parse("{ not: json: at all", "https://x.example");
    expect(junk.code).toBe(400);
    expect(junk.msg).toMatch(/could not be read/);
    expect((await parse('{"openapi":"3.0.0","info":{"title":"x","version":"1"},"paths":{}}')).msg).toMatch(/no operations/);
  });

  it("reads Swagger 2 (Petstore): basePath, body and formData parameters, multipart, API key", async () => {
    const r = await parse(fixture("petstore-swagger2.json"), "https://petstore.swagger.io");
    expect(r.code).toBe(200);
    const plugins = r.data.plugins as P[];
    expect(plugins).toHaveLength(8);
    const add = byName(plugins, "add_pet");
    expect(add).toMatchObject({
      method: "POST",
      url: "https://petstore.swagger.io/v2/pet",
      contentType: "json",
      pluginName: "Add a new pet to the store",
    });
    expect(add.body.map((b) => b.name)).toEqual(["id", "category", "name", "photoUrls", "tags", "status"]);
    expect(add.body.find((b) => b.name === "name")?.required).toBe(true);
    expect(add.body.find((b) => b.name === "status")?.options).toEqual(["available", "pending", "sold"]);
    expect(add.body.find((b) => b.name === "id")?.type).toBe("number");
    const upload = byName(plugins, "upload_file");
    expect(upload).toMatchObject({ contentType: "multipart", url: "https://petstore.swagger.io/v2/pet/{petId}/uploadImage" });
    expect(upload.pathVariables).toMatchObject([{ name: "petId", required: true, type: "number" }]);
    expect(byName(plugins, "update_pet_with_form").contentType).toBe("form");
    expect(byName(plugins, "get_pet_by_id").auth).toEqual({ type: "apiKey", in: "header", name: "api_key" });
    expect(byName(plugins, "delete_pet").headers.map((h) => h.name)).toEqual(["api_key"]);
    expect(byName(plugins, "login_user").parameters.map((p) => `${p.name}:${p.required}`)).toEqual(["username:true", "password:true"]);
  });

  it("reads OpenAPI 3.0 YAML (Petstore 3) from a URL, with a relative server and requestBody by $ref", async () => {
    const r = await parse(`${docsBase}/petstore.yaml`, "https://petstore3.swagger.io");
    expect(r.code, JSON.stringify(r)).toBe(200);
    const plugins = r.data.plugins as P[];
    expect(plugins.map((p) => p.pluginCallableName)).toEqual([
      "update_pet",
      "add_pet",
      "find_pets_by_status",
      "get_pet_by_id",
      "delete_pet",
      "place_order",
    ]);
    const add = byName(plugins, "add_pet");
    expect(add).toMatchObject({ url: "https://petstore3.swagger.io/api/v3/pet", contentType: "json" });
    expect(add.body.map((b) => b.name)).toContain("photoUrls");
    expect(byName(plugins, "place_order")).toMatchObject({ contentType: "form" });
    expect(byName(plugins, "find_pets_by_status").parameters[0]).toMatchObject({
      name: "status",
      required: true,
      options: ["available", "pending", "sold"],
    });
  });

  it("resolves $ref in parameters (path-item and operation level, and inside their schemas)", async () => {
    const r = await parse(fixture("refs-in-parameters.json"), "https://api.example.com/v1");
    const plugins = r.data.plugins as P[];
    const get = byName(plugins, "get_order");
    expect(get.url).toBe("https://api.example.com/v1/orders/{orderId}");
    expect(get.pathVariables).toMatchObject([{ name: "orderId", required: true }]);
    expect(get.parameters.map((p) => p.name)).toEqual(["fields"]);
    expect(get.headers.map((h) => h.name)).toEqual(["X-Trace-Id"]);
    const list = byName(plugins, "list_orders");
    expect(list.parameters).toMatchObject([
      { name: "pageSize", type: "number" },
      { name: "status", options: ["open", "paid", "shipped"] },
    ]);
  });

  it("reads OpenAPI 3.1: server variables, type arrays, bearer and query API keys", async () => {
    const r = await parse(fixture("openapi-3.1.json"), "https://{region}.weather.example.com/{version}");
    const plugins = r.data.plugins as P[];
    const forecast = byName(plugins, "get_forecast");
    expect(forecast.url).toBe("https://cn.weather.example.com/v2/forecast/{city}");
    expect(forecast.auth.type).toBe("bearer");
    expect(forecast.parameters).toMatchObject([
      { name: "days", type: "number" },
      { name: "units", options: ["metric", "imperial"] },
    ]);
    expect(byName(plugins, "create_alert").auth).toEqual({ type: "apiKey", in: "query", name: "appkey" });
  });

  it("follows external $refs only through safe fetch: never file:, never private addresses, not even by redirect", async () => {
    const withRef = (ref: string) =>
      JSON.stringify({
        openapi: "3.0.0",
        info: { title: "x", version: "1" },
        paths: {
          "/p": { post: { operationId: "op", requestBody: { content: { "application/json": { schema: { $ref: ref } } } }, responses: {} } },
        },
      });
    const ok = await parse(withRef(`${docsBase}/schemas/pet.json`));
    expect(ok.code, JSON.stringify(ok)).toBe(200);
    expect(ok.data.plugins[0].body.map((b: { name: string }) => b.name)).toEqual(["nick", "age"]);
    for (const ref of [
      "file:///etc/passwd",
      "/etc/passwd",
      "../../../etc/passwd",
      `${innerBase}/schema.json`,
      `${docsBase}/moved`,
      "http://169.254.169.254/latest/meta-data/",
    ]) {
      const r = await parse(withRef(ref));
      expect(r.code, ref).toBe(400);
      expect(JSON.stringify(r), ref).not.toContain("innerSecret");
      expect(JSON.stringify(r), ref).not.toContain("root:");
    }
  });

  it("answers a loopback or private document URL with the refusal, in zh and en, never the generic URL message", async () => {
    for (const src of [
      `${docsBase}/moved`,
      "http://localhost:9/x.json",
      "http://[::1]:9/x.json",
      "http://0x7f000001/a.json",
      "http://192.168.1.2/a.json",
    ]) {
      const en = await parse(src, "https://api.example.com");
      expect(en.code, src).toBe(400);
      expect(en.msg, src).toMatch(/^this address may not be reached: /);
      const zh = await parse(src, "https://api.example.com", "zh");
      expect(zh.msg, src).toMatch(/^不允许访问该地址：/);
      expect(zh.msg).not.toContain("请输入正确的URL地址");
    }
  });
  it("refuses a document URL or baseUrl at a private address", async () => {
    for (const [src, base] of [
      [`${innerBase}/doc.json`, "https://api.example.com"],
      ["http://2130706433/doc.json", "https://api.example.com"],
      [fixture("refs-in-parameters.json"), "http://10.0.0.8/api"],
      [fixture("refs-in-parameters.json"), "http://[::ffff:127.0.0.1]/api"],
    ]) {
      const r = await parse(src, base);
      expect(r.code, `${src.slice(0, 40)} ${base}`).toBe(400);
      expect(r.msg).toMatch(/may not be reached/);
    }
  });
});

describe("OpenAPI import: save, and cURL", () => {
  it("saves the reviewed plugins with a tag, unpublished, callable names made unique", async () => {
    const plugins = (await parse(fixture("refs-in-parameters.json"), "https://api.example.com/v1")).data.plugins;
    const save = async () =>
      (
        await t.app.inject({
          method: "POST",
          url: "/aiagent_api/plugin/openapi/save",
          headers: { ...user.headers, "accept-language": "en" },
          payload: { release: false, plugins, tag: "订单" },
        })
      ).json();
    const first = await save();
    expect(first).toMatchObject({ code: 200, msg: "saved successfully!" });
    expect(first.data.ids).toHaveLength(2);
    const second = await save();
    expect(second.data.ids).toHaveLength(2);
    const page = await t.app.inject({
      method: "POST",
      url: "/aiagent_api/plugin/page",
      headers: user.headers,
      payload: { pluginTypes: 1 },
    });
    const names = page.json().data.content.map((p: { pluginCallableName: string }) => p.pluginCallableName);
    expect(names).toEqual(expect.arrayContaining(["get_order", "get_order_2", "list_orders", "list_orders_2"]));
    const one = page.json().data.content[0];
    expect(one).toMatchObject({ pluginStatus: "C00_Unreleased", pluginTags: ["订单"], pluginType: "HTTP" });
  });

  it("turns a cURL command line into a plugin", async () => {
    const curl = `curl -X POST 'https://api.example.com/v1/items?limit=10' \\
      -H 'Authorization: Bearer tok-123' -H "X-Client: web" \\
      --data-raw '{"name":"杯子","count":2}'`;
    const r = (
      await t.app.inject({ method: "POST", url: "/aiagent_api/plugin/curl/parse", headers: user.headers, payload: { curl } })
    ).json();
    expect(r.code).toBe(200);
    const [p] = r.data.plugins;
    expect(p).toMatchObject({
      method: "POST",
      url: "https://api.example.com/v1/items",
      contentType: "json",
      auth: { type: "bearer" },
      authSecret: "tok-123",
    });
    expect(p.parameters).toMatchObject([{ name: "limit", description: "e.g. 10" }]);
    expect(p.headers).toMatchObject([{ name: "X-Client", fixedValue: "web" }]);
    expect(p.body).toMatchObject([{ name: "name" }, { name: "count", type: "number" }]);
    const form = (
      await t.app.inject({
        method: "POST",
        url: "/aiagent_api/plugin/curl/parse",
        headers: user.headers,
        payload: { curl: "curl https://x.example.com/f -d 'a=1&b=2'" },
      })
    ).json();
    expect(form.data.plugins[0]).toMatchObject({ method: "POST", contentType: "form" });
    const bad = (
      await t.app.inject({ method: "POST", url: "/aiagent_api/plugin/curl/parse", headers: user.headers, payload: { curl: "wget x" } })
    ).json();
    expect(bad.code).toBe(400);
    const inward = (
      await t.app.inject({
        method: "POST",
        url: "/aiagent_api/plugin/curl/parse",
        headers: user.headers,
        payload: { curl: "curl http://127.1:8080/x" },
      })
    ).json();
    expect(inward.msg).toBe("不允许访问该地址：127.0.0.1");
  });
});
