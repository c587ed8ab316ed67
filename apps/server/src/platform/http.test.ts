import Fastify from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig } from "../config.ts";
import { createUser } from "../test/factories.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { AppError, tokenInvalid } from "./errors.ts";
import { installErrorHandler, loggerOptions, PREFIXES, RequestLog } from "./http.ts";

/** Full paths and methods of the routes Fastify prints as a tree. */
function routesOf(tree: string) {
  const stack: string[] = [];
  const out: { path: string; methods: string[] }[] = [];
  for (const line of tree.split("\n")) {
    const at = line.indexOf("── ");
    if (at < 0) continue;
    const depth = Math.round((at - 1) / 4);
    const m = line.slice(at + 3).match(/^(.*?) \(([A-Z, ]+)\)$/);
    if (!m) continue;
    stack.length = depth;
    const path = (stack[depth - 1] ?? "") + m[1];
    stack[depth] = path;
    out.push({ path, methods: m[2].split(", ").filter((x) => x !== "HEAD") });
  }
  return out;
}

describe("the whole app", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("every answer carries the security headers: routes, errors, unknown paths, the chat stream", async () => {
    const user = await createUser(t);
    const answers = [
      await t.app.inject({ url: "/healthz" }),
      await t.app.inject({ url: "/agent_api/api/userinfo/findUserInfo" }),
      await t.app.inject({ url: "/agent_api/no/such/call" }),
      await t.app.inject({
        method: "POST",
        url: "/agent/agent_runtime/chat",
        payload: { token: user.token, schema_id: "nope", query: "hi" },
      }),
    ];
    for (const res of answers) {
      expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(res.headers["strict-transport-security"]).toContain("max-age=");
    }
  });

  it("/docs/json lists every API route with its methods, and the prefix table", async () => {
    const res = await t.app.inject({ url: "/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { info: { description: string }; paths: Record<string, Record<string, unknown>> };
    expect(doc.info.description).toContain("/wendao_api/wendao/");
    const prefixes = Object.values(PREFIXES);
    const routes = routesOf(t.app.printRoutes({ commonPrefix: false })).filter((r) => prefixes.some((p) => r.path.startsWith(`${p}/`)));
    expect(routes.length).toBeGreaterThanOrEqual(17);
    const missing: string[] = [];
    for (const r of routes) {
      const openapi = r.path.replace(/:(\w+)/g, "{$1}");
      for (const method of r.methods) if (!doc.paths[openapi]?.[method.toLowerCase()]) missing.push(`${method} ${r.path}`);
    }
    expect(missing).toEqual([]);
    for (const path of [
      "/agent_api/api/auth/login",
      "/agent_api/api/auth/logout",
      "/agent_api/api/auth/reg",
      "/agent_api/api/auth/reg/send-check-code",
      "/agent_api/api/auth/reg/emailPhoneLogin",
      "/agent_api/api/auth/reg/getTenantInfo",
      "/agent_api/api/loginImage/captchaImage",
      "/agent_api/api/appletLogin/qrcode",
      "/agent_api/api/appletLogin/qrcode/status/{id}",
      "/agent_api/api/userinfo/findUserInfo",
      "/agent_api/api/userinfo/findUserMemberInfo",
      "/agent_api/api/userinfo/findUseFeeData",
      "/agent_api/api/userinfo/findIsFirstLogin",
    ])
      expect(doc.paths[path], path).toBeTruthy();
  });

  it("answers an unknown API path with the envelope", async () => {
    const res = await t.app.inject({ url: "/agent_api/api/no/such/call" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 404, msg: "请求的资源不存在", data: null });
  });

  it("attack: values the database refuses (a NUL byte, a number past its column) are a 400, not a 500", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const nul = await t.app.inject({
      method: "POST",
      url: "/aiagent_api/agent/quick/add",
      payload: { agentName: "a\u0000b" },
      headers: u.headers,
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toMatchObject({ code: 400, data: null });
    const beat = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/usage_heartbeat",
      payload: { agentId: "x\u0000" },
      headers: u.headers,
    });
    expect(beat.statusCode).toBe(400);
    const { agentId } = (
      await t.app.inject({ method: "POST", url: "/aiagent_api/agent/quick/add", payload: {}, headers: u.headers })
    ).json().data;
    const version = await t.app.inject({ url: `/aiagent_api/agent/version/${agentId}/3000000000`, headers: u.headers });
    expect(version.statusCode).toBe(400);
  });

  it("compatibility: an empty body sent as application/json (the spec's client, on every POST) is no body", async () => {
    const u = await createUser(t);
    const json = { ...u.headers, "content-type": "application/json" };
    const copy = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/agent/quick/copy-from-launch/no-such-agent",
      headers: json,
      payload: "",
    });
    expect(copy.statusCode).toBe(404);
    const code = await t.app.inject({ method: "POST", url: "/agent_api/api/benefit/useCode", headers: json, payload: "" });
    expect(code.json().msg).toBe("请输入邀请码！");
    const out = await t.app.inject({ method: "POST", url: "/agent_api/api/auth/logout", headers: json, payload: " " });
    expect(out.statusCode).toBe(200);
    // A body that is there must still be JSON.
    const broken = await t.app.inject({ method: "POST", url: "/agent_api/api/benefit/useCode", headers: json, payload: "{" });
    expect(broken.statusCode).toBe(400);
  });

  it("gives the web the settings it needs before sign-in", async () => {
    const res = await t.app.inject({ url: "/agent_api/api/platform/settings" });
    // Serialised once at start: still the envelope, as JSON.
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.json()).toMatchObject({ code: 200, msg: "操作成功" });
    expect(res.json().data).toMatchObject({ captchaEnabled: false });
    // attack: nothing about special users (administrators, the exempt user, the home user).
    expect(res.body).not.toMatch(/admin|exempt|homeUsername/i);
    expect(res.json().data.recordFiling).toHaveLength(3);
  });
});

describe("the error handler", () => {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  beforeAll(async () => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandler(app);
    app.get("/boom", async () => {
      throw new Error("connect ECONNREFUSED 10.0.0.5:5432 password=hunter2");
    });
    app.get("/app-error", async () => {
      throw new AppError("tooMany", 429, { seconds: 42 });
    });
    app.get("/refused", async () => {
      throw new AppError("balanceInsufficient", 400);
    });
    app.get("/bad-response", { schema: { response: { 200: z.object({ n: z.number() }) } } }, async () => ({ n: "not a number" }) as never);
    app.post("/typed", { schema: { body: z.object({ n: z.number() }) } }, async () => ({ ok: true }));
    app.post(
      "/checked",
      {
        schema: {
          body: z.object({
            name: z.string().min(2).max(5),
            tags: z.array(z.string()).min(1),
            age: z.number().min(0).max(150),
            kind: z.enum(["a", "b"]),
            mail: z.email(),
          }),
        },
      },
      async () => ({ ok: true }),
    );
    app.post(
      "/url",
      { schema: { body: z.object({ n: z.number(), url: z.string().refine((v) => v.startsWith("https://"), "urlInvalid") }) } },
      async () => ({ ok: true }),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it("hides 5xx internals", async () => {
    const res = await app.inject({ url: "/boom" });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 500, msg: "服务器内部错误", data: null });
    expect(res.body).not.toMatch(/ECONNREFUSED|hunter2/);
    const bad = await app.inject({ url: "/bad-response" });
    expect(bad.statusCode).toBe(500);
    expect(bad.body).not.toContain("not a number");
  });

  it("writes catalogue errors in the asked language", async () => {
    expect((await app.inject({ url: "/app-error" })).json()).toEqual({ code: 429, msg: "操作过于频繁，请42秒后再试", data: null });
    expect((await app.inject({ url: "/app-error", headers: { lang: "en" } })).json().msg).toBe("too many attempts, try again in 42 s");
  });

  it("names the reason of a refusal answered on the membership page (the chat offers the way there)", async () => {
    expect((await app.inject({ url: "/refused", headers: { lang: "en" } })).json()).toEqual({
      code: 400,
      msg: "insufficient balance, please top up first",
      data: { reason: "balanceInsufficient" },
    });
  });

  it("turns contract violations into 400 with the field named", async () => {
    const res = await app.inject({ method: "POST", url: "/typed", payload: { n: "x" } });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("参数错误：n 类型不正确，应为 number");
  });

  it("words each kind of contract violation in the asker's language", async () => {
    const say = async (payload: unknown, lang = "zh") =>
      (await app.inject({ method: "POST", url: "/checked", payload: payload as object, headers: { lang } })).json().msg;
    const ok = { name: "ab", tags: ["x"], age: 5, kind: "a", mail: "a@b.cn" };
    expect(await say({ ...ok, name: undefined })).toBe("参数错误：name 不能为空");
    expect(await say({ ...ok, name: "a" })).toBe("参数错误：name 至少 2 个字符");
    expect(await say({ ...ok, name: "abcdef" })).toBe("参数错误：name 最多 5 个字符");
    expect(await say({ ...ok, tags: [] })).toBe("参数错误：tags 至少 1 项");
    expect(await say({ ...ok, age: 200 })).toBe("参数错误：age 不能大于 150");
    expect(await say({ ...ok, kind: "c" })).toBe("参数错误：kind 取值不正确，可选：a、b");
    expect(await say({ ...ok, mail: "no" })).toBe("参数错误：mail 格式不正确");
    expect(await say({ ...ok, name: "a", age: -1 }, "en")).toBe(
      "parameter error: name takes at least 2 characters; age must be at least 0",
    );
    expect(await say({ ...ok, name: undefined }, "en")).toBe("parameter error: name is required");
  });

  it("answers a contract check that names a message with that message, in the asker's language", async () => {
    const payload = { n: 1, url: "ftp://x" };
    expect((await app.inject({ method: "POST", url: "/url", payload })).json()).toEqual({
      code: 400,
      msg: "请输入正确的URL地址。",
      data: null,
    });
    const en = await app.inject({ method: "POST", url: "/url", payload: { ...payload, n: "x" }, headers: { lang: "en" } });
    expect(en.json().msg).toBe("Please enter the correct URL address.");
  });
});

describe("the request log", () => {
  /** An app logging as the platform does (at `level`, `slowMs` its threshold), and the lines it wrote. */
  async function logging(level: string, slowMs: number, urls: string[]) {
    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line) };
    const app = Fastify({ logger: { ...loggerOptions(level), stream }, logController: new RequestLog(slowMs) });
    installErrorHandler(app);
    app.get("/ok", async () => "ok");
    app.get("/quiet", { logLevel: "warn" }, async () => "ok");
    app.get("/slow", async () => new Promise((resolve) => setTimeout(() => resolve("ok"), 60)));
    app.get("/refused", async () => {
      throw tokenInvalid();
    });
    app.get("/boom", async () => {
      throw new Error("the database went away");
    });
    await app.ready();
    for (const url of urls) await app.inject({ url, headers: { authorization: "Bearer TOKEN-SECRET" } });
    await app.close();
    return lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "request completed");
  }

  it("attack: share tokens, QR keys and sandbox pay tokens in query strings are not logged", async () => {
    const requests = await logging("info", 0, [
      "/agent/agent_runtime/share?shareToken=SHARE-SECRET",
      "/agent_api/api/appletLogin/qrcode/status/abc?key=QR-SECRET",
      "/agent_api/api/order/sandbox/2026001?t=PAY-SECRET&lang=zh",
      "/pay/sandbox?orderNo=2026001&t=PAY-SECRET2",
    ]);
    const log = JSON.stringify(requests);
    expect(requests).toHaveLength(4);
    expect(log).toContain("/agent/agent_runtime/share?shareToken=[redacted]");
    expect(log).toContain("orderNo=2026001&t=[redacted]");
    expect(log).toContain("lang=zh");
    expect(log).not.toMatch(/SECRET/);
  });

  it("by default a quick successful request is logged at debug, not at the default level", async () => {
    const { LOG_LEVEL, REQUEST_LOG_SLOW_MS } = loadConfig({});
    expect(await logging(LOG_LEVEL, REQUEST_LOG_SLOW_MS, ["/ok"])).toEqual([]);
    const [line, ...more] = await logging("debug", REQUEST_LOG_SLOW_MS, ["/ok?lang=zh"]);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: 20, req: { method: "GET", url: "/ok?lang=zh" }, res: { statusCode: 200 } });
  });

  it("a failed request is logged at info, with its status", async () => {
    const requests = await logging("info", 1000, ["/refused", "/boom", "/agent_api/api/no-such-route"]);
    expect(requests.map((l) => [l.level, l.req.url, l.res.statusCode])).toEqual([
      [30, "/refused", 403],
      [30, "/boom", 500],
      [30, "/agent_api/api/no-such-route", 404],
    ]);
  });

  it("a slow request is logged at info, with its time", async () => {
    const [line, ...more] = await logging("info", 50, ["/ok", "/slow"]);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: 30, req: { url: "/slow" }, res: { statusCode: 200 } });
    expect(line.responseTime).toBeGreaterThanOrEqual(50);
  });

  it("with a threshold of 0 every request is logged at info, but routes that log at warn", async () => {
    const requests = await logging("info", 0, ["/ok", "/quiet"]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ level: 30, req: { url: "/ok" }, res: { statusCode: 200 } });
    expect(requests[0].responseTime).toBeTypeOf("number");
  });
});
