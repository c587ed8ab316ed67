import type { PayChannel } from "@agentfair/contracts";

/** A payment the provider vouches for: produced only by a verified notification or query. */
export interface VerifiedPayment {
  orderNo: string;
  /** SUCCESS settles; anything else (NOTPAY, CLOSED, ...) leaves the order to its own flow. */
  state: "SUCCESS" | "NOTPAY" | "CLOSED" | "REVOKED" | "PAYERROR" | "USERPAYING" | "REFUND";
  transactionId: string;
  amountCents: number;
}

export interface PaymentOrder {
  orderNo: string;
  amountCents: number;
  description: string;
  expiresAt: Date;
  /** The buyer's web route base ("" or "/{tenant domain}"), for pages of this platform. */
  basePath: string;
}

/**
 * One interface for every payment channel. Every method may call the network: callers never
 * hold a database transaction open around them (PGlite is single-connection).
 */
export interface PaymentProvider {
  readonly channel: PayChannel;
  /** Creates the payment and returns what the QR code encodes. `origin` is this platform's URL. */
  create(order: PaymentOrder, origin: string): Promise<{ payUrl: string }>;
  /** Verifies a notification's signature and decodes it; throws on anything unverifiable. */
  verifyNotification(headers: Record<string, string | string[] | undefined>, rawBody: string): Promise<VerifiedPayment>;
  /** The provider's own view of an order, for reconciliation of orders never notified. */
  query(orderNo: string): Promise<VerifiedPayment>;
  /** Closes an unpaid payment so it can no longer be paid (cancel and expiry). */
  close(orderNo: string): Promise<void>;
  /** Returns a paid order's money to the payer; idempotent by `refundNo`. */
  refund(payment: { orderNo: string; refundNo: string; amountCents: number; totalCents: number; reason: string }): Promise<void>;
}

export class PaymentVerificationError extends Error {}
