import {
  createDecipheriv,
  createPublicKey,
  createSign,
  createVerify,
  type KeyObject,
  randomBytes,
  X509Certificate,
  createPrivateKey,
} from "node:crypto";
import fs from "node:fs";
import type { Config } from "../../../config.ts";
import { type PaymentOrder, type PaymentProvider, PaymentVerificationError, type VerifiedPayment } from "./provider.ts";

const MAX_SKEW_MS = 5 * 60 * 1000;
const SCHEMA = "WECHATPAY2-SHA256-RSA2048";

/** A PEM given inline (with real or escaped newlines) or as a file path. */
function pemText(value: string) {
  const v = value.trim();
  if (v.includes("-----BEGIN")) return v.replace(/\\n/g, "\n");
  return fs.readFileSync(v, "utf8");
}

const header = (h: Record<string, string | string[] | undefined>, name: string) => {
  const v = h[name] ?? h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** RFC 3339 in China time, as WeChat Pay expects for time_expire. */
function chinaTime(d: Date) {
  const shifted = new Date(d.getTime() + 8 * 3600_000);
  return `${shifted.toISOString().slice(0, 19)}+08:00`;
}

export interface WechatPaySettings {
  baseUrl: string;
  mchid: string;
  appid: string;
  serialNo: string;
  privateKey: KeyObject;
  apiV3Key: Buffer;
  /** Verification keys by serial: platform certificates, or the WeChat Pay public key by its id. */
  platformKeys: Map<string, KeyObject>;
  notifyUrl: string;
}

export function wechatPaySettings(config: Config): WechatPaySettings {
  const missing = ["WECHATPAY_MCHID", "WECHATPAY_APPID", "WECHATPAY_SERIAL_NO", "WECHATPAY_PRIVATE_KEY", "WECHATPAY_APIV3_KEY"].filter(
    (k) => !config[k as keyof Config],
  );
  if (!config.WECHATPAY_PLATFORM_CERTS && !config.WECHATPAY_PUBLIC_KEY) missing.push("WECHATPAY_PLATFORM_CERTS or WECHATPAY_PUBLIC_KEY");
  if (missing.length) throw new Error(`PAYMENT_PROVIDER=wechatpay needs ${missing.join(", ")}`);
  const apiV3Key = Buffer.from(config.WECHATPAY_APIV3_KEY, "utf8");
  if (apiV3Key.length !== 32) throw new Error("WECHATPAY_APIV3_KEY must be 32 bytes");
  const platformKeys = new Map<string, KeyObject>();
  if (config.WECHATPAY_PLATFORM_CERTS) {
    const text = pemText(config.WECHATPAY_PLATFORM_CERTS);
    for (const pem of text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) {
      const cert = new X509Certificate(pem);
      platformKeys.set(cert.serialNumber.toUpperCase(), cert.publicKey);
    }
  }
  if (config.WECHATPAY_PUBLIC_KEY) {
    if (!config.WECHATPAY_PUBLIC_KEY_ID) throw new Error("WECHATPAY_PUBLIC_KEY needs WECHATPAY_PUBLIC_KEY_ID");
    platformKeys.set(config.WECHATPAY_PUBLIC_KEY_ID.toUpperCase(), createPublicKey(pemText(config.WECHATPAY_PUBLIC_KEY)));
  }
  return {
    baseUrl: config.WECHATPAY_BASE_URL.replace(/\/$/, ""),
    mchid: config.WECHATPAY_MCHID,
    appid: config.WECHATPAY_APPID,
    serialNo: config.WECHATPAY_SERIAL_NO,
    privateKey: createPrivateKey(pemText(config.WECHATPAY_PRIVATE_KEY)),
    apiV3Key,
    platformKeys,
    notifyUrl: config.WECHATPAY_NOTIFY_URL,
  };
}

interface Transaction {
  appid?: string;
  mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; payer_total?: number; currency?: string };
}

/**
 * WeChat Pay API v3, Native payment: requests signed with the merchant RSA key, answers and
 * notifications verified with the platform key chosen by Wechatpay-Serial, notification
 * resources decrypted with AES-256-GCM under the APIv3 key, appid and mchid checked.
 */
export class WechatPayProvider implements PaymentProvider {
  readonly channel = "wechatpay" as const;

  constructor(private readonly s: WechatPaySettings) {}

  /** The Authorization header of one request. */
  authorization(
    method: string,
    pathWithQuery: string,
    body: string,
    timestamp = Math.floor(Date.now() / 1000),
    nonce = randomBytes(16).toString("hex"),
  ) {
    const message = `${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`;
    const signature = createSign("RSA-SHA256").update(message).sign(this.s.privateKey, "base64");
    return `${SCHEMA} mchid="${this.s.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${this.s.serialNo}"`;
  }

  /** Checks Wechatpay-Signature over timestamp, nonce and the raw body with the key of Wechatpay-Serial. */
  verifySignature(headers: Record<string, string | string[] | undefined>, rawBody: string) {
    const timestamp = header(headers, "wechatpay-timestamp");
    const nonce = header(headers, "wechatpay-nonce");
    const signature = header(headers, "wechatpay-signature");
    const serial = header(headers, "wechatpay-serial");
    if (!timestamp || !nonce || !signature || !serial) throw new PaymentVerificationError("unsigned");
    if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() - Number(timestamp) * 1000) > MAX_SKEW_MS)
      throw new PaymentVerificationError("stale");
    const key = this.s.platformKeys.get(serial.toUpperCase());
    if (!key) throw new PaymentVerificationError("unknown serial");
    const ok = createVerify("RSA-SHA256").update(`${timestamp}\n${nonce}\n${rawBody}\n`).verify(key, signature, "base64");
    if (!ok) throw new PaymentVerificationError("bad signature");
  }

  decrypt(resource: { algorithm?: string; ciphertext?: string; nonce?: string; associated_data?: string }) {
    if (resource.algorithm !== "AEAD_AES_256_GCM" || !resource.ciphertext || !resource.nonce)
      throw new PaymentVerificationError("bad resource");
    const data = Buffer.from(resource.ciphertext, "base64");
    if (data.length < 17) throw new PaymentVerificationError("bad resource");
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.s.apiV3Key, Buffer.from(resource.nonce, "utf8"));
      decipher.setAuthTag(data.subarray(data.length - 16));
      decipher.setAAD(Buffer.from(resource.associated_data ?? "", "utf8"));
      return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
    } catch {
      throw new PaymentVerificationError("decryption failed");
    }
  }

  /** A transaction is ours only when appid and mchid are this merchant's. */
  private payment(tx: Transaction): VerifiedPayment {
    if (tx.appid !== this.s.appid || tx.mchid !== this.s.mchid) throw new PaymentVerificationError("foreign merchant");
    if (!tx.out_trade_no || !tx.trade_state) throw new PaymentVerificationError("bad transaction");
    return {
      orderNo: tx.out_trade_no,
      state: tx.trade_state as VerifiedPayment["state"],
      transactionId: tx.transaction_id ?? "",
      amountCents: Number(tx.amount?.total ?? -1),
    };
  }

  async verifyNotification(headers: Record<string, string | string[] | undefined>, rawBody: string): Promise<VerifiedPayment> {
    this.verifySignature(headers, rawBody);
    let body: { event_type?: string; resource_type?: string; resource?: Record<string, string> };
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw new PaymentVerificationError("bad body");
    }
    if (!body.resource) throw new PaymentVerificationError("bad body");
    let tx: Transaction;
    try {
      tx = JSON.parse(this.decrypt(body.resource));
    } catch (err) {
      if (err instanceof PaymentVerificationError) throw err;
      throw new PaymentVerificationError("bad resource");
    }
    return this.payment(tx);
  }

  private async call(method: "GET" | "POST", pathWithQuery: string, payload?: unknown) {
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const res = await fetch(`${this.s.baseUrl}${pathWithQuery}`, {
      method,
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        "user-agent": "agentfair-billing",
        authorization: this.authorization(method, pathWithQuery, body),
      },
      body: method === "GET" ? undefined : body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const headers = Object.fromEntries(res.headers.entries());
    // Answers are signed too: an unsigned or forged answer is no answer.
    if (res.status !== 204 || text) this.verifySignature(headers, text);
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  async create(order: PaymentOrder, origin: string) {
    const res = await this.call("POST", "/v3/pay/transactions/native", {
      appid: this.s.appid,
      mchid: this.s.mchid,
      description: order.description.slice(0, 127),
      out_trade_no: order.orderNo,
      time_expire: chinaTime(order.expiresAt),
      notify_url: this.s.notifyUrl || `${origin}/agent_api/api/order/notify/wechatpay`,
      amount: { total: order.amountCents, currency: "CNY" },
    });
    if (res.status !== 200 || typeof res.json.code_url !== "string")
      throw new Error(`native order failed: ${res.status} ${String(res.json.code ?? "")}`);
    return { payUrl: res.json.code_url };
  }

  async query(orderNo: string): Promise<VerifiedPayment> {
    const res = await this.call(
      "GET",
      `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(this.s.mchid)}`,
    );
    if (res.status === 404) return { orderNo, state: "NOTPAY", transactionId: "", amountCents: 0 };
    if (res.status !== 200) throw new Error(`query failed: ${res.status}`);
    const payment = this.payment(res.json as Transaction);
    if (payment.orderNo !== orderNo) throw new PaymentVerificationError("another order");
    return payment;
  }

  async close(orderNo: string) {
    const res = await this.call("POST", `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}/close`, { mchid: this.s.mchid });
    if (res.status !== 204 && res.status !== 200) throw new Error(`close failed: ${res.status}`);
  }

  async refund(payment: { orderNo: string; refundNo: string; amountCents: number; totalCents: number; reason: string }) {
    const res = await this.call("POST", "/v3/refund/domestic/refunds", {
      out_trade_no: payment.orderNo,
      out_refund_no: payment.refundNo,
      reason: payment.reason.slice(0, 80),
      amount: { refund: payment.amountCents, total: payment.totalCents, currency: "CNY" },
    });
    const status = String(res.json.status ?? "");
    if (res.status !== 200 || !["SUCCESS", "PROCESSING"].includes(status))
      throw new Error(`refund failed: ${res.status} ${String(res.json.code ?? status)}`);
  }
}
