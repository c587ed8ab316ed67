import { execFileSync } from "node:child_process";
import { createCipheriv, createSign, createVerify, generateKeyPairSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders } from "../../../db/schema/index.ts";
import { createUser } from "../../../test/factories.ts";
import { createTestApp, type TestApp } from "../../../test/harness.ts";
import { API, balanceOf, caller, seedCatalog } from "../billing.fixtures.ts";

const MCHID = "1900000109";
const APPID = "wxd678efh567hg6787";
const MERCHANT_SERIAL = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1";
const APIV3_KEY = "0123456789abcdef0123456789ABCDEF";

/**
 * A local server that speaks WeChat Pay API v3 (Native pay, query, close) with keys generated
 * here: it checks the merchant's request signatures and signs its answers with the platform key.
 */
class FakeWechatPay {
  readonly merchant = generateKeyPairSync("rsa", { modulusLength: 2048 });
  readonly platform = generateKeyPairSync("rsa", { modulusLength: 2048 });
  platformSerial = "";
  platformCertPem = "";
  orders = new Map<string, { total: number; state: string; transactionId: string }>();
  closed: string[] = [];
  refunds: { out_trade_no: string; out_refund_no: string; amount: { refund: number; total: number } }[] = [];
  failRefunds = false;
  requests: { method: string; url: string; authOk: boolean }[] = [];
  forgeAnswers = false;
  server = http.createServer((req, res) => this.handle(req, res));
  port = 0;

  async start() {
    // A self-signed platform certificate (openssl), so the serial comes from a real X.509 cert.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wxpay-"));
    const keyFile = path.join(dir, "platform.key");
    fs.writeFileSync(keyFile, this.platform.privateKey.export({ type: "pkcs8", format: "pem" }));
    execFileSync("openssl", [
      "req",
      "-new",
      "-x509",
      "-key",
      keyFile,
      "-out",
      path.join(dir, "platform.pem"),
      "-days",
      "2",
      "-subj",
      "/CN=Tenpay.com Root CA",
      "-set_serial",
      "0x2A6C3F1B9D",
    ]);
    this.platformCertPem = fs.readFileSync(path.join(dir, "platform.pem"), "utf8");
    this.platformSerial = "2A6C3F1B9D";
    fs.rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", () => r()));
    this.port = (this.server.address() as { port: number }).port;
  }

  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }

  /** Wechatpay-* headers over an answer or notification body, signed with the platform key. */
  signHeaders(body: string, key = this.platform.privateKey, serial = this.platformSerial, timestamp = Math.floor(Date.now() / 1000)) {
    const nonce = randomBytes(16).toString("hex");
    const signature = createSign("RSA-SHA256").update(`${timestamp}\n${nonce}\n${body}\n`).sign(key, "base64");
    return {
      "wechatpay-timestamp": String(timestamp),
      "wechatpay-nonce": nonce,
      "wechatpay-signature": signature,
      "wechatpay-serial": serial,
    };
  }

  encrypt(plain: object, key = APIV3_KEY) {
    const nonce = randomBytes(6).toString("hex");
    const aad = "transaction";
    const cipher = createCipheriv("aes-256-gcm", Buffer.from(key), Buffer.from(nonce));
    cipher.setAAD(Buffer.from(aad));
    const data = Buffer.concat([cipher.update(JSON.stringify(plain)), cipher.final(), cipher.getAuthTag()]);
    return {
      algorithm: "AEAD_AES_256_GCM",
      ciphertext: data.toString("base64"),
      associated_data: aad,
      nonce,
      original_type: "transaction",
    };
  }

  transaction(orderNo: string, over: Record<string, unknown> = {}) {
    const o = this.orders.get(orderNo);
    return {
      appid: APPID,
      mchid: MCHID,
      out_trade_no: orderNo,
      transaction_id: o?.transactionId ?? "4200000000000000000",
      trade_type: "NATIVE",
      trade_state: o?.state ?? "SUCCESS",
      amount: { total: o?.total ?? 0, payer_total: o?.total ?? 0, currency: "CNY", payer_currency: "CNY" },
      ...over,
    };
  }

  notification(orderNo: string, over: Record<string, unknown> = {}) {
    return JSON.stringify({
      id: randomBytes(8).toString("hex"),
      create_time: new Date().toISOString(),
      resource_type: "encrypt-resource",
      event_type: "TRANSACTION.SUCCESS",
      summary: "支付成功",
      resource: this.encrypt(this.transaction(orderNo, over)),
    });
  }

  private checkAuth(req: http.IncomingMessage, body: string) {
    const auth = req.headers.authorization ?? "";
    const m = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(auth);
    if (!m) return false;
    const fields = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (fields.mchid !== MCHID || fields.serial_no !== MERCHANT_SERIAL) return false;
    const message = `${req.method}\n${req.url}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
    return createVerify("RSA-SHA256").update(message).verify(this.merchant.publicKey, fields.signature, "base64");
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const authOk = this.checkAuth(req, body);
      this.requests.push({ method: req.method ?? "", url: req.url ?? "", authOk });
      const answer = (status: number, payload?: object) => {
        const text = payload ? JSON.stringify(payload) : "";
        const key = this.forgeAnswers ? generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey : this.platform.privateKey;
        res.writeHead(status, { "content-type": "application/json", ...this.signHeaders(text, key) });
        res.end(text);
      };
      if (!authOk) return answer(401, { code: "SIGN_ERROR", message: "签名错误" });
      const url = new URL(req.url ?? "/", "http://x");
      if (req.method === "POST" && url.pathname === "/v3/pay/transactions/native") {
        const b = JSON.parse(body);
        if (b.appid !== APPID || b.mchid !== MCHID || !b.notify_url || !b.time_expire) return answer(400, { code: "PARAM_ERROR" });
        this.orders.set(b.out_trade_no, { total: b.amount.total, state: "NOTPAY", transactionId: `42000${Date.now()}` });
        return answer(200, { code_url: `weixin://wxpay/bizpayurl?pr=${b.out_trade_no.slice(-8)}` });
      }
      const q = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && q) {
        if (url.searchParams.get("mchid") !== MCHID) return answer(400, { code: "PARAM_ERROR" });
        if (!this.orders.has(q[1])) return answer(404, { code: "ORDER_NOT_EXIST", message: "订单不存在" });
        return answer(200, this.transaction(q[1]));
      }
      const c = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(url.pathname);
      if (req.method === "POST" && c) {
        const o = this.orders.get(c[1]);
        if (o?.state === "SUCCESS") return answer(400, { code: "ORDERPAID", message: "订单已支付" });
        if (o) o.state = "CLOSED";
        this.closed.push(c[1]);
        return answer(204);
      }
      if (req.method === "POST" && url.pathname === "/v3/refund/domestic/refunds") {
        if (this.failRefunds) return answer(500, { code: "SYSTEM_ERROR", message: "系统繁忙" });
        const b = JSON.parse(body);
        if (this.orders.get(b.out_trade_no)?.state !== "SUCCESS") return answer(400, { code: "INVALID_REQUEST" });
        this.refunds.push(b);
        return answer(200, { refund_id: `50000${Date.now()}`, out_refund_no: b.out_refund_no, status: "PROCESSING", amount: b.amount });
      }
      answer(404, { code: "NOT_FOUND" });
    });
  }
}

describe("WeChat Pay API v3 (Native) against a local v3 server", () => {
  const wx = new FakeWechatPay();
  let t: TestApp;
  let plans: Awaited<ReturnType<typeof seedCatalog>>;
  beforeAll(async () => {
    await wx.start();
    t = await createTestApp({
      PAYMENT_PROVIDER: "wechatpay",
      WECHATPAY_BASE_URL: `http://127.0.0.1:${wx.port}`,
      WECHATPAY_MCHID: MCHID,
      WECHATPAY_APPID: APPID,
      WECHATPAY_SERIAL_NO: MERCHANT_SERIAL,
      WECHATPAY_PRIVATE_KEY: wx.merchant.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      WECHATPAY_APIV3_KEY: APIV3_KEY,
      WECHATPAY_PLATFORM_CERTS: wx.platformCertPem,
      WECHATPAY_NOTIFY_URL: "https://agentfair.example/agent_api/api/order/notify/wechatpay",
    });
    plans = await seedCatalog(t);
  });
  afterAll(async () => {
    await t.close();
    await wx.stop();
  });
  const notify = (body: string, headers: Record<string, string>) =>
    t.app.inject({
      method: "POST",
      url: `${API}/order/notify/wechatpay`,
      headers: { ...headers, "content-type": "application/json" },
      payload: body,
    });

  it("creates a Native order with a signed request; the code_url is the payUrl; a verified notification settles once", async () => {
    const u = await createUser(t);
    const api = caller(t, u.headers);
    const created = (await api.post(`/order/${plans.MONTHLY.id}/create`, {})).json().data;
    expect(created.payChannel).toBe("wechatpay");
    expect(created.payUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(wx.requests.at(-1)).toMatchObject({ method: "POST", url: "/v3/pay/transactions/native", authOk: true });
    expect(wx.orders.get(created.orderNo)?.total).toBe(2900);
    wx.orders.get(created.orderNo)!.state = "SUCCESS";
    const body = wx.notification(created.orderNo);
    const headers = wx.signHeaders(body);
    const first = await notify(body, headers);
    expect(first.statusCode).toBe(204);
    for (let i = 0; i < 5; i++) expect((await notify(body, headers)).statusCode).toBe(204);
    expect((await api.get(`/order/${created.orderId}/status`)).json().data.orderStatus).toBe("PAID");
    expect((await balanceOf(t, u.id)).memberLevel).toBe("MONTHLY");
  });

  it("rejects notifications: unsigned, forged key, unknown serial, tampered body, stale, bad tag, other merchant, wrong amount", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const created = (await caller(t, u.headers).post("/order/recharge/amount", { amount: 30 })).json().data;
    wx.orders.get(created.orderNo)!.state = "SUCCESS";
    const body = wx.notification(created.orderNo);
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const bad: [string, string, Record<string, string>][] = [
      ["unsigned", body, {}],
      ["forged key", body, wx.signHeaders(body, other.privateKey)],
      ["unknown serial", body, wx.signHeaders(body, wx.platform.privateKey, "DEADBEEF")],
      ["tampered", body.replace('"支付成功"', '"支付失败"'), wx.signHeaders(body)],
      ["stale", body, wx.signHeaders(body, wx.platform.privateKey, wx.platformSerial, Math.floor(Date.now() / 1000) - 3600)],
    ];
    const badTag = JSON.parse(body);
    badTag.resource.ciphertext = Buffer.from(
      Buffer.from(badTag.resource.ciphertext, "base64").map((b, i, a) => (i === a.length - 1 ? b ^ 1 : b)),
    ).toString("base64");
    const badTagBody = JSON.stringify(badTag);
    bad.push(["bad tag", badTagBody, wx.signHeaders(badTagBody)]);
    const wrongKeyBody = JSON.stringify({
      ...JSON.parse(body),
      resource: wx.encrypt(wx.transaction(created.orderNo), "ffffffffffffffffffffffffffffffff"),
    });
    bad.push(["wrong APIv3 key", wrongKeyBody, wx.signHeaders(wrongKeyBody)]);
    for (const [over, label] of [
      [{ appid: "wx0000000000000000" }, "other appid"],
      [{ mchid: "1900000999" }, "other mchid"],
      [{ amount: { total: 1, payer_total: 1, currency: "CNY" } }, "wrong amount"],
    ] as const) {
      const b = wx.notification(created.orderNo, over);
      bad.push([label, b, wx.signHeaders(b)]);
    }
    for (const [label, b, h] of bad) {
      const res = await notify(b, h);
      expect(res.statusCode, label).toBe(400);
    }
    const [row] = await t.platform.db.select().from(orders).where(eq(orders.orderNo, created.orderNo));
    expect(row.status).toBe("PENDING");
    expect((await balanceOf(t, u.id)).balanceCents).toBe(0);
  });

  it("reconciliation asks about orders never notified and settles the paid ones", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const created = (await caller(t, u.headers).post("/order/recharge/amount", { amount: 15 })).json().data;
    wx.orders.get(created.orderNo)!.state = "SUCCESS";
    await t.platform.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(orders.orderNo, created.orderNo));
    await t.platform.jobs.runNow("billing.reconcile-orders");
    expect(wx.requests.some((r) => r.method === "GET" && r.url.includes(created.orderNo) && r.authOk)).toBe(true);
    expect((await balanceOf(t, u.id)).balanceCents).toBe(1500);
    // Expired unpaid orders are closed and cancelled.
    const stale = (await caller(t, u.headers).post("/order/recharge/amount", { amount: 16 })).json().data;
    await t.platform.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 3 * 3600_000) })
      .where(eq(orders.orderNo, stale.orderNo));
    await t.platform.jobs.runNow("billing.reconcile-orders");
    expect(wx.closed).toContain(stale.orderNo);
    expect((await t.platform.db.select().from(orders).where(eq(orders.orderNo, stale.orderNo)))[0].status).toBe("CANCELLED");
  });

  it("cancel closes the order at WeChat Pay; an order paid meanwhile settles instead", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const api = caller(t, u.headers);
    const a = (await api.post("/order/recharge/amount", { amount: 10 })).json().data;
    expect((await api.post("/order/cancelOrder", { orderNo: a.orderNo })).json().data.orderStatus).toBe("CANCELLED");
    expect(wx.closed).toContain(a.orderNo);
    const b = (await api.post("/order/recharge/amount", { amount: 11 })).json().data;
    wx.orders.get(b.orderNo)!.state = "SUCCESS";
    expect((await api.post("/order/cancelOrder", { orderNo: b.orderNo })).statusCode).toBe(400);
    expect((await api.get(`/order/${b.orderId}/status`)).json().data.orderStatus).toBe("PAID");
    expect((await balanceOf(t, u.id)).balanceCents).toBe(1100);
  });

  it("an administrator's refund sends the money back through WeChat Pay, retried by reconciliation when it fails", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    const admin = caller(t, (await createUser(t, { username: "admin" })).headers);
    const pay = async (amount: number) => {
      const o = (await caller(t, u.headers).post("/order/recharge/amount", { amount })).json().data;
      wx.orders.get(o.orderNo)!.state = "SUCCESS";
      const body = wx.notification(o.orderNo);
      expect((await notify(body, wx.signHeaders(body))).statusCode).toBe(204);
      return o;
    };
    const a = await pay(12);
    expect((await admin.post(`/admin/billing/orders/${a.orderId}/refund`)).json().data.orderStatus).toBe("REFUNDED");
    expect(wx.refunds.find((r) => r.out_trade_no === a.orderNo)).toMatchObject({
      out_refund_no: `R${a.orderNo}`,
      amount: { refund: 1200, total: 1200 },
    });
    expect(wx.requests.at(-1)).toMatchObject({ url: "/v3/refund/domestic/refunds", authOk: true });
    expect((await t.platform.db.select().from(orders).where(eq(orders.orderNo, a.orderNo)))[0].refundState).toBe("DONE");
    const b = await pay(13);
    wx.failRefunds = true;
    expect((await admin.post(`/admin/billing/orders/${b.orderId}/refund`)).json().data.orderStatus).toBe("REFUNDED");
    expect((await t.platform.db.select().from(orders).where(eq(orders.orderNo, b.orderNo)))[0].refundState).toBe("REQUESTED");
    wx.failRefunds = false;
    await t.platform.db
      .update(orders)
      .set({ updatedAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(orders.orderNo, b.orderNo));
    await t.platform.jobs.runNow("billing.reconcile-orders");
    expect((await t.platform.db.select().from(orders).where(eq(orders.orderNo, b.orderNo)))[0].refundState).toBe("DONE");
    expect((await balanceOf(t, u.id)).balanceCents).toBe(0);
  });

  it("answers with a forged signature are not trusted: the order is not opened", async () => {
    const u = await createUser(t, { memberLevel: "MONTHLY" });
    wx.forgeAnswers = true;
    try {
      const res = await caller(t, u.headers).post("/order/recharge/amount", { amount: 10 });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe("创建支付失败，请稍后再试");
    } finally {
      wx.forgeAnswers = false;
    }
  });
});
