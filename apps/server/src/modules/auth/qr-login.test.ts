import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qrTickets } from "../../db/schema/index.ts";
import { createTenant, createUser, randomIp } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

const QR = "/agent_api/api/appletLogin/qrcode";
type Ticket = { id: string; key: string; url: string; img: string; expiresAt: string };
const status = (t: TestApp, q: Pick<Ticket, "id" | "key">) => t.app.inject({ url: `${QR}/status/${q.id}`, query: { key: q.key } });
const confirm = (t: TestApp, id: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url: `${QR}/${id}/confirm`, headers });
const ticket = async (t: TestApp, domain?: string) => {
  const res = await t.app.inject({
    url: QR,
    query: domain ? { domain } : {},
    remoteAddress: randomIp(),
    headers: { host: "agents.example.cn" },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as Ticket;
};

describe("QR login", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await createTenant(t, "acme");
  });
  afterAll(async () => {
    await t.close();
  });

  it("issues a one-time ticket whose QR encodes this platform's confirm page", async () => {
    const q = await ticket(t);
    expect(q.url).toBe(`http://agents.example.cn/qr-confirm?id=${q.id}`);
    expect(q.img).toMatch(/^data:image\/png;base64,/);
    const ttl = new Date(q.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
    const acme = await ticket(t, "acme");
    expect(acme.url).toBe(`http://agents.example.cn/acme/qr-confirm?id=${acme.id}`);
  });

  it("waits, is confirmed by a signed-in user of the same tenant, hands the session over once, then expires", async () => {
    const q = await ticket(t);
    expect((await status(t, q)).json()).toEqual({ code: 200, msg: "操作成功", data: { status: "WAITING" } });
    const phone = await createUser(t);
    const ok = await confirm(t, q.id, phone.headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().msg).toBe("已确认登录");

    const handed = await status(t, q);
    expect(handed.json().data.status).toBe("CONFIRMED");
    const { token, reportToken } = handed.json().data;
    expect(token).toBeTruthy();
    expect(reportToken).toBeTruthy();
    expect(token).not.toBe(phone.token);
    expect(handed.cookies.find((c) => c.name === "Admin-Token")?.value).toBe(token);
    const info = await t.app.inject({ url: "/agent_api/api/userinfo/findUserInfo", headers: { authorization: `Bearer ${token}` } });
    expect(info.json().data.username).toBe(phone.username);

    const again = await status(t, q);
    expect(again.json().data).toEqual({ status: "EXPIRED" });
    // A used ticket cannot be confirmed again.
    expect((await confirm(t, q.id, phone.headers)).statusCode).toBe(400);
  });

  it("hands the session only to the page that holds the key, not to whoever read the QR", async () => {
    const q = await ticket(t);
    expect(q.key).toMatch(/^[\w-]{20,}$/);
    expect(q.url).not.toContain(q.key);
    expect(q.img).not.toContain(q.key);
    const user = await createUser(t);
    expect((await confirm(t, q.id, user.headers)).statusCode).toBe(200);
    for (const key of ["wrong-key", `${q.key}x`]) {
      const stolen = await status(t, { id: q.id, key });
      expect(stolen.statusCode).toBe(404);
      expect(stolen.body).not.toContain('token"');
    }
    expect((await t.app.inject({ url: `${QR}/status/${q.id}` })).statusCode).toBe(400);
    expect((await status(t, q)).json().data.status).toBe("CONFIRMED");
  });

  it("refuses a confirmation without sign-in", async () => {
    const q = await ticket(t);
    const res = await confirm(t, q.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toBe("token失效");
    expect((await status(t, q)).json().data.status).toBe("WAITING");
  });

  it("refuses a confirmation from another tenant's user, both ways", async () => {
    const q = await ticket(t);
    const acmeUser = await createUser(t, { domain: "acme" });
    const res = await confirm(t, q.id, acmeUser.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("该二维码属于其他租户，请使用对应租户的账号确认");
    expect((await status(t, q)).json().data).toEqual({ status: "WAITING" });

    const acmeTicket = await ticket(t, "acme");
    const defaultUser = await createUser(t);
    expect((await confirm(t, acmeTicket.id, defaultUser.headers)).statusCode).toBe(400);
    expect((await confirm(t, acmeTicket.id, acmeUser.headers)).statusCode).toBe(200);
    const handed = await status(t, acmeTicket);
    const info = await t.app.inject({
      url: "/agent_api/api/userinfo/findUserInfo",
      headers: { authorization: `Bearer ${handed.json().data.token}` },
    });
    expect(info.json().data).toMatchObject({ username: acmeUser.username, tenantDomain: "acme" });
  });

  it("an expired ticket reports EXPIRED and cannot be confirmed", async () => {
    const q = await ticket(t);
    await t.platform.db
      .update(qrTickets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(qrTickets.id, q.id));
    expect((await status(t, q)).json().data).toEqual({ status: "EXPIRED" });
    const user = await createUser(t);
    const res = await confirm(t, q.id, user.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe("二维码已过期，请刷新");
  });

  it("a ticket confirmed but picked up after expiry hands nothing over", async () => {
    const q = await ticket(t);
    const user = await createUser(t);
    expect((await confirm(t, q.id, user.headers)).statusCode).toBe(200);
    await t.platform.db
      .update(qrTickets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(qrTickets.id, q.id));
    const res = await status(t, q);
    expect(res.json().data).toEqual({ status: "EXPIRED" });
    expect(res.cookies.length).toBe(0);
  });

  it("answers 404 for an unknown ticket and 400 for a malformed id", async () => {
    const unknown = await status(t, { id: crypto.randomUUID(), key: "x" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe(404);
    expect((await status(t, { id: "not-a-uuid", key: "x" })).statusCode).toBe(400);
    const user = await createUser(t);
    expect((await confirm(t, "not-a-uuid", user.headers)).statusCode).toBe(400);
    expect((await confirm(t, crypto.randomUUID(), user.headers)).statusCode).toBe(400);
  });

  it("refuses an unknown tenant domain", async () => {
    const res = await t.app.inject({ url: QR, query: { domain: "nowhere" } });
    expect(res.statusCode).toBe(404);
    expect(res.json().msg).toBe("租户不存在");
  });

  it("limits new tickets per IP", async () => {
    const ip = randomIp();
    let last = 200;
    for (let i = 0; i < 31; i++) last = (await t.app.inject({ url: QR, remoteAddress: ip })).statusCode;
    expect(last).toBe(429);
  });
});

describe("QR login behind PUBLIC_URL", () => {
  it("encodes the configured public address", async () => {
    const t = await createTestApp({ PUBLIC_URL: "https://agentfair.example.com/" });
    try {
      const q = await ticket(t);
      expect(q.url).toBe(`https://agentfair.example.com/qr-confirm?id=${q.id}`);
    } finally {
      await t.close();
    }
  });
});
