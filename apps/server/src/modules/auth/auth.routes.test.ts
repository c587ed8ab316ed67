import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { createUser, TEST_PASSWORD } from "../../test/factories.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const login = (payload: object, remoteAddress = "10.0.0.1") =>
  t.app.inject({ method: "POST", url: "/agent_api/api/auth/login", payload, remoteAddress });

describe("login", () => {
  it("signs in with the right password and returns a working token", async () => {
    const user = await createUser(t);
    const res = await login({ username: user.username, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    const { token } = res.json().data;
    expect(res.cookies.find((c) => c.name === "Admin-Token")?.value).toBe(token);
    const info = await t.app.inject({ url: "/agent_api/api/userinfo/findUserInfo", headers: { authorization: `Bearer ${token}` } });
    expect(info.json().data).toMatchObject({ username: user.username, tenantId: null, userMemberLevel: { memberLevel: "FREE" } });
  });

  it("refuses a wrong password with a clear message", async () => {
    const user = await createUser(t);
    const res = await login({ username: user.username, password: "nope" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, msg: "用户名或密码错误", data: null });
  });

  it("answers in English when asked", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/agent_api/api/auth/login",
      payload: { username: "nobody", password: "x" },
      headers: { "accept-language": "en-US" },
    });
    expect(res.json().msg).toBe("wrong username or password");
  });

  it("rejects a body that breaks the contract", async () => {
    const res = await login({ username: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain("参数错误");
  });
});
