import type { MessageKey } from "./messages.ts";

/**
 * The one error type: a catalogue message key, the HTTP status, and the envelope code.
 * The error handler translates the message and writes the spec's envelope.
 *
 * Status mapping follows the spec's client (doc 1 §8): a missing, expired or revoked token is
 * HTTP 403 ('token失效', the client signs out); a signed-in caller without the right is 401
 * ('no permission'). Objects another user owns are reported as 404, so ids leak nothing.
 */
export class AppError extends Error {
  constructor(
    readonly key: MessageKey,
    readonly status: number = 400,
    readonly params: Record<string, string | number> = {},
    readonly code: number = status,
  ) {
    super(key);
  }
}

export const badRequest = (key: MessageKey, params?: Record<string, string | number>) => new AppError(key, 400, params);
export const tokenInvalid = () => new AppError("tokenInvalid", 403);
export const forbidden = () => new AppError("forbidden", 401);
export const notFound = () => new AppError("notFound", 404);
export const tooMany = (seconds: number) => new AppError("tooMany", 429, { seconds });
