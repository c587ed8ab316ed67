import { z } from "zod";

/** The spec's response envelope: code 200 (or 0 for the knowledge service) means success. */
export const envelope = <T extends z.ZodTypeAny>(data: T) => z.object({ code: z.number(), msg: z.string(), data });

export type Envelope<T> = { code: number; msg: string; data: T };

export const SUCCESS_CODES = [200, 0] as const;
/** A response code the client passes through untouched (doc 1 §8). */
export const PASS_THROUGH_CODE = 50002;

export const pageOf = <T extends z.ZodTypeAny>(item: T) => z.object({ list: z.array(item), total: z.number() });

/** Stable error codes of the one error catalogue; the message text lives in the server's i18n. */
export const ERROR_CODES = {
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooMany: 429,
  internal: 500,
} as const;

export const languages = ["zh", "en"] as const;
export type Language = (typeof languages)[number];

/** Settings the web needs before login; all configurable on the server. */
export const platformSettings = z.object({
  captchaEnabled: z.boolean(),
  rpaHost: z.string(),
  enterpriseTenant: z.string(),
  recordFiling: z.array(z.object({ origin: z.string(), text: z.string() })),
  bankTransferEnabled: z.boolean(),
});
export type PlatformSettings = z.infer<typeof platformSettings>;
