import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { type PaymentOrder, type PaymentProvider, PaymentVerificationError, type VerifiedPayment } from "./provider.ts";

const MAX_SKEW_MS = 5 * 60 * 1000;
const header = (h: Record<string, string | string[] | undefined>, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The embedded payment channel. The pay URL is a page of this platform (/pay/sandbox) carrying
 * a scan token; when the payer confirms there, the server builds a notification signed with
 * HMAC-SHA256 and feeds it to the same verified, idempotent settlement path a real one takes.
 */
export class SandboxProvider implements PaymentProvider {
  readonly channel = "sandbox" as const;
  private readonly notifyKey: string;
  private readonly scanKey: string;

  constructor(secret: string) {
    this.notifyKey = createHmac("sha256", secret).update("billing.sandbox.notify").digest("hex");
    this.scanKey = createHmac("sha256", secret).update("billing.sandbox.scan").digest("hex");
  }

  /** The token in the QR: whoever holds it may pay or decline this one order. */
  scanToken(orderNo: string) {
    return createHmac("sha256", this.scanKey).update(orderNo).digest("base64url");
  }

  checkScanToken(orderNo: string, token: string) {
    const expected = Buffer.from(this.scanToken(orderNo));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  async create(order: PaymentOrder, origin: string) {
    const q = new URLSearchParams({ orderNo: order.orderNo, t: this.scanToken(order.orderNo) });
    return { payUrl: `${origin}${order.basePath}/pay/sandbox?${q}` };
  }

  /** The notification the sandbox "bank" sends when the payer confirms: headers and raw body. */
  signedNotification(payment: { orderNo: string; amountCents: number }, now = Date.now()) {
    const body = JSON.stringify({
      event: "TRANSACTION.SUCCESS",
      orderNo: payment.orderNo,
      transactionId: `SBX${now}${randomBytes(4).toString("hex")}`,
      amountCents: payment.amountCents,
    });
    const timestamp = String(Math.floor(now / 1000));
    const nonce = randomBytes(12).toString("hex");
    const signature = this.sign(timestamp, nonce, body);
    return { headers: { "x-sandbox-timestamp": timestamp, "x-sandbox-nonce": nonce, "x-sandbox-signature": signature }, body };
  }

  private sign(timestamp: string, nonce: string, body: string) {
    return createHmac("sha256", this.notifyKey).update(`${timestamp}\n${nonce}\n${body}\n`).digest("base64");
  }

  async verifyNotification(headers: Record<string, string | string[] | undefined>, rawBody: string): Promise<VerifiedPayment> {
    const timestamp = header(headers, "x-sandbox-timestamp");
    const nonce = header(headers, "x-sandbox-nonce");
    const signature = header(headers, "x-sandbox-signature");
    if (!timestamp || !nonce || !signature) throw new PaymentVerificationError("unsigned");
    if (Math.abs(Date.now() - Number(timestamp) * 1000) > MAX_SKEW_MS) throw new PaymentVerificationError("stale");
    const expected = Buffer.from(this.sign(timestamp, nonce, rawBody));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new PaymentVerificationError("bad signature");
    let data: { event?: unknown; orderNo?: unknown; transactionId?: unknown; amountCents?: unknown };
    try {
      data = JSON.parse(rawBody);
    } catch {
      throw new PaymentVerificationError("bad body");
    }
    if (
      data.event !== "TRANSACTION.SUCCESS" ||
      typeof data.orderNo !== "string" ||
      typeof data.transactionId !== "string" ||
      !Number.isInteger(data.amountCents)
    ) {
      throw new PaymentVerificationError("bad body");
    }
    return { orderNo: data.orderNo, state: "SUCCESS", transactionId: data.transactionId, amountCents: data.amountCents as number };
  }

  /** The sandbox has no state of its own: a payment exists only once its notification arrived. */
  async query(orderNo: string): Promise<VerifiedPayment> {
    return { orderNo, state: "NOTPAY", transactionId: "", amountCents: 0 };
  }

  async close(_orderNo: string) {}

  /** Sandbox money is not real: nothing to send back. */
  async refund(_payment: { orderNo: string; refundNo: string; amountCents: number; totalCents: number; reason: string }) {}
}
