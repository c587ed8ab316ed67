import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../i18n";
import { API, cancelPending, configureHttp, http, HttpError } from "./http";
import { removeToken, setTokens } from "./storage";

const notify = vi.fn();
const tokenInvalid = vi.fn();
const fetchMock = vi.fn();

const reply = (status: number, body?: unknown) =>
  fetchMock.mockResolvedValueOnce(
    new Response(body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json" },
    }),
  );

/** The error a call ends with (the client throws HttpError with the shown text). */
async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (e) {
    return e as HttpError;
  }
  throw new Error("the call did not fail");
}

beforeEach(async () => {
  vi.stubGlobal("fetch", fetchMock);
  configureHttp({ notifyError: notify, onTokenInvalid: tokenInvalid });
  await i18n.changeLanguage("zh");
});
afterEach(() => {
  fetchMock.mockReset();
  notify.mockReset();
  tokenInvalid.mockReset();
  removeToken();
});

describe("the http client (doc 1 §8)", () => {
  it("returns data for code 200 and code 0", async () => {
    reply(200, { code: 200, msg: "操作成功", data: { a: 1 } });
    expect(await http.get(`${API.agent}/x`)).toEqual({ a: 1 });
    reply(200, { code: 0, msg: "ok", data: [1] });
    expect(await http.get(`${API.knowledge}/y`)).toEqual([1]);
    expect(notify).not.toHaveBeenCalled();
  });

  it("sends the bearer token from the cookie, the language, JSON bodies and query strings", async () => {
    setTokens({ token: "tok-1", reportToken: "rep-1" });
    reply(200, { code: 200, msg: "", data: null });
    await http.post("/agent_api/api/z", { n: 1 });
    let [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/agent_api/api/z");
    expect(init.method).toBe("POST");
    expect(init.headers).toMatchObject({ authorization: "Bearer tok-1", lang: "zh", "content-type": "application/json" });
    expect(init.body).toBe('{"n":1}');
    reply(200, { code: 200, msg: "", data: null });
    await i18n.changeLanguage("en");
    await http.get("/agent_api/api/q", { a: "x y", b: 2, c: undefined, d: null });
    [url, init] = fetchMock.mock.calls[1];
    expect(url).toBe("/agent_api/api/q?a=x+y&b=2");
    expect(init.headers.lang).toBe("en");
  });

  it("sends no authorization header without a token", async () => {
    reply(200, { code: 200, msg: "", data: null });
    await http.get("/agent_api/api/q");
    expect(fetchMock.mock.calls[0][1].headers.authorization).toBeUndefined();
  });

  it("HTTP 403 is 'token失效' and signs out", async () => {
    setTokens({ token: "expired", reportToken: "expired-2" });
    reply(403, { code: 403, msg: "token失效", data: null });
    const e = await failure(http.get("/agent_api/api/q"));
    expect(e).toBeInstanceOf(HttpError);
    expect(e.message).toBe("token失效");
    expect(e.status).toBe(403);
    expect(notify).toHaveBeenCalledWith("token失效");
    expect(tokenInvalid).toHaveBeenCalledTimes(1);
  });

  it("HTTP 403 without a body is 'token失效' too; with no token sent there is no session to end", async () => {
    reply(403);
    expect((await failure(http.get("/agent_api/api/q"))).message).toBe("token失效");
    expect(tokenInvalid).not.toHaveBeenCalled();
  });

  it.each([500, 502, 503, 504])("HTTP %i is '服务器错误%i', never the server's text", async (status) => {
    reply(status, { code: status, msg: "stack trace here", data: null });
    const e = await failure(http.get("/agent_api/api/q"));
    expect(e.message).toBe(`服务器错误${status}`);
    expect(notify).toHaveBeenCalledWith(`服务器错误${status}`);
    expect(tokenInvalid).not.toHaveBeenCalled();
  });

  it.each([
    [400, "参数错误", "parameter error"],
    [401, "没有权限", "no permission"],
    [404, "请求的资源不存在", "server resource not found"],
    [408, "请求超时", "timeout"],
  ])("HTTP %i without a server message reads %s / %s", async (status, zh, en) => {
    reply(status);
    expect((await failure(http.get("/agent_api/api/q"))).message).toBe(zh);
    await i18n.changeLanguage("en");
    reply(status, "not json");
    expect((await failure(http.get("/agent_api/api/q"))).message).toBe(en);
  });

  it("other statuses read '连接错误{status}'", async () => {
    reply(418);
    expect((await failure(http.get("/agent_api/api/q"))).message).toBe("连接错误418");
    reply(302);
    expect((await failure(http.get("/agent_api/api/q"))).message).toBe("连接错误302");
  });

  it("in English, the spec's Chinese-only texts read in English", async () => {
    await i18n.changeLanguage("en");
    setTokens({ token: "tok-1", reportToken: "rep-1" });
    reply(403);
    expect((await failure(http.get("/agent_api/api/q"))).message).toBe("token invalid");
    reply(502);
    expect((await failure(http.get("/agent_api/api/q"))).message).toBe("server error 502");
    reply(418);
    expect((await failure(http.get("/agent_api/api/q"))).message).toBe("connection error 418");
    fetchMock.mockImplementationOnce(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")))),
    );
    const call = http.get("/agent_api/api/slow");
    cancelPending();
    expect((await failure(call)).message).toBe("Request cancelled!");
  });

  it("shows the server's message when it sends one", async () => {
    reply(400, { code: 400, msg: "用户名或密码错误", data: null });
    const e = await failure(http.post("/agent_api/api/auth/login", {}));
    expect(e.message).toBe("用户名或密码错误");
    expect(e.code).toBe(400);
    expect(notify).toHaveBeenCalledWith("用户名或密码错误");
    reply(200, { code: 4001, msg: "业务失败", data: null });
    expect((await failure(http.get("/agent_api/api/q"))).message).toBe("业务失败");
  });

  it("no connection reads 'connection to server failed'", async () => {
    await i18n.changeLanguage("en");
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    const e = await failure(http.get("/agent_api/api/q"));
    expect(e.message).toBe("connection to server failed");
    expect(e.status).toBe(0);
    await i18n.changeLanguage("zh");
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    expect((await failure(http.get("/agent_api/api/q"))).message).toBe("连接服务器失败");
  });

  it("cancelling pending requests on navigation ends them with '请求取消！', quietly", async () => {
    fetchMock.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")))),
    );
    const call = http.get("/agent_api/api/slow");
    const kept = http.get("/agent_api/api/poll", undefined, { keepOnNavigate: true });
    cancelPending();
    const e = await failure(call);
    expect(e.message).toBe("请求取消！");
    expect(notify).not.toHaveBeenCalled();
    // A request marked keepOnNavigate survives; end it by its own signal.
    let settled = false;
    kept.catch(() => undefined).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    const controller = new AbortController();
    const own = http.get("/agent_api/api/own", undefined, { keepOnNavigate: true, signal: controller.signal });
    controller.abort();
    expect((await failure(own)).message).toBe("请求取消！");
  });

  it("passes a response with code 50002 through untouched", async () => {
    const body = { code: 50002, msg: "需要处理", data: { x: 1 } };
    reply(200, body);
    expect(await http.get("/agent_api/api/q")).toEqual(body);
    expect(notify).not.toHaveBeenCalled();
  });

  it("silent calls show no toast but still fail with the message", async () => {
    reply(400, { code: 400, msg: "验证码错误", data: null });
    const e = await failure(http.post("/agent_api/api/auth/login", {}, { silent: true }));
    expect(e.message).toBe("验证码错误");
    expect(notify).not.toHaveBeenCalled();
  });

  it("a 200 whose body is not the envelope is a server error", async () => {
    reply(200, "<html>");
    expect((await failure(http.get("/agent_api/api/q"))).message).toBe("服务器错误500");
  });
});
