import type { MultipartFile } from "@fastify/multipart";
import { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import helmet, { type HelmetOptions } from "helmet";
import pino from "pino";
import { AppError, tokenInvalid } from "./errors.ts";
import { type MessageKey, messages, requestLanguage, translate } from "./messages.ts";

/** Call-path prefixes of the spec: one table, shown in the API docs too. */
export const PREFIXES = {
  agent: "/agent_api",
  knowledge: "/wendao_api",
  builder: "/aiagent_api",
  runtime: "/agent/agent_runtime",
  report: "/prod-api",
} as const;

export const PREFIX_TABLE = `| Prefix | Serves |
|---|---|
| \`/agent_api/api/...\` | doc 1 calls: auth, users, agents, orders, membership, wallet, files |
| \`/wendao_api/wendao/...\` | knowledge bases (success code 0) |
| \`/aiagent_api/...\` | tools, workflows, agent drafts, rules |
| \`/agent/agent_runtime/...\` | chat runtime |
| \`/prod-api/...\` | report lookups |
| \`/healthz\` | health check |`;

/** Query parameters that carry secrets (share tokens, QR keys, sandbox pay tokens): never logged. */
const SECRET_PARAMS = /token|secret|sign|^key$|^t$/i;

/** The URL as the request log shows it: secret query values replaced. */
export function redactUrl(url: string) {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split("&")
    .map((pair) => {
      const name = decodeURIComponentSafe(pair.split("=")[0]);
      return SECRET_PARAMS.test(name) ? `${pair.split("=")[0]}=[redacted]` : pair;
    });
  return `${url.slice(0, at)}?${query.join("&")}`;
}
const decodeURIComponentSafe = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The pino options of the app: credentials in headers redacted, secrets in query strings too. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: ["req.headers.authorization", "req.headers.cookie"],
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}

/**
 * Where the log goes: stdout, written asynchronously (lines logged while a write is under way go
 * out together in the next one; what is left is flushed when the process exits). A synchronous
 * write per line, which wakes the log's reader each time, was a sixth of a small request's time.
 */
export const logDestination = () => pino.destination({ dest: 1, sync: false });

/**
 * One log line per request, written when it ends: method, redacted URL, client, status and time.
 * At info only when it matters: an answer of 400 or more, a broken response, or one that took
 * `slowMs` or longer. A quick successful request goes at debug: nginx's access log and `/metrics`
 * count those, and writing each line was a quarter to a third of a small request's time. `slowMs`
 * 0 logs every request at info. Fastify's default also writes an incoming line; it is kept at
 * debug, for following a long stream.
 */
export class RequestLog extends LogController {
  constructor(private readonly slowMs: number) {
    super();
  }

  incomingRequest(request: FastifyRequest) {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, "incoming request");
  }

  requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (this.isLogDisabled(request)) return;
    if (error) return reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, "request errored");
    const worth = reply.statusCode >= 400 || reply.elapsedTime >= this.slowMs;
    reply.log[worth ? "info" : "debug"]({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}

/**
 * Helmet's security headers on every answer. Helmet's middleware sets the same headers for every
 * request, so they are worked out once here and copied onto each reply (@fastify/helmet builds
 * the middleware anew per request, parsing the CSP each time: a fifth of a trivial route's time).
 */
export function installSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)(
    {} as Parameters<ReturnType<typeof helmet>>[0],
    recorder as unknown as Parameters<ReturnType<typeof helmet>>[1],
    () => {},
  );
  app.addHook("onRequest", (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}

export function ok<T>(data: T, msg = "操作成功") {
  return { code: 200, msg, data };
}

/**
 * Sends `ok(data)` whose data was serialised beforehand (checked against its contract when it was
 * made: a constant, a cached page). Fastify sends a JSON string as it is, so the route's response
 * schema (which still documents the answer) does not validate and serialise it on every request.
 */
export function sendOk(reply: FastifyReply, dataJson: string) {
  return reply.type("application/json; charset=utf-8").send(`{"code":200,"msg":"操作成功","data":${dataJson}}`);
}

/**
 * Refusals a user answers on the membership page (open or upgrade a plan, top up): their envelope's
 * data names the reason, so that a page (the chat) can offer the way there, whatever the language.
 */
const MEMBERSHIP_REFUSALS: ReadonlySet<MessageKey> = new Set([
  "membershipRequired",
  "memberFeatureRequired",
  "freeChatsExhausted",
  "dailyChatsExhausted",
  "balanceInsufficient",
]);

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const lang = requestLanguage(request.headers);
  const data = MEMBERSHIP_REFUSALS.has(error.key) ? { reason: error.key } : null;
  return reply.status(error.status).send({ code: error.code, msg: translate(error.key, lang, error.params), data });
}

/**
 * PostgreSQL data exceptions caused by the values a request sent (a NUL byte in text, a number
 * past its column's range, a malformed date): bad input, answered 400 like any other.
 */
const INPUT_SQLSTATES = new Set(["22021", "22P05", "22003", "22P02", "22007", "22008"]);
function isBadInputFromDatabase(error: unknown) {
  let e: unknown = error;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && INPUT_SQLSTATES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The one JSON body parser. The spec's own web client sends `Content-Type: application/json` on
 * every POST, also on calls that carry no payload: an empty body is read as `{}`. Anything else
 * goes through Fastify's own parser (prototype poisoning refused).
 */
export function installJsonParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if ((body as string).trim() === "") return done(null, {});
    return parse(request, body as string, done);
  });
}

const isUpload = (req: FastifyRequest) => !!req.headers["content-type"]?.toLowerCase().startsWith("multipart/");

/**
 * Uploads (multipart bodies) are refused before their body is read when nobody is signed in or
 * the declared length is over `maxBytes`; every upload route needs a user. When an upload is
 * answered before its body was read to the end (refused here, or stopped at a route's file
 * limit), the connection is closed instead of drained, so the rest is never read.
 * Runs after the hook that resolves the caller.
 */
export function installUploadGuard(app: FastifyInstance, maxBytes: number) {
  // Callback hooks: they run on every request, and most are no upload (no promise to settle).
  app.addHook("onRequest", (req, _reply, done) => {
    if (!isUpload(req)) return done();
    if (!req.caller) return done(tokenInvalid());
    if (Number(req.headers["content-length"] ?? 0) > maxBytes)
      return done(new AppError("fileTooLarge", 413, { size: `${Math.floor(maxBytes / 1024 / 1024)}MB` }));
    done();
  });
  app.addHook("onSend", (req, reply, payload, done) => {
    if (isUpload(req) && !req.raw.complete) {
      reply.header("connection", "close");
      stopReading(req.raw);
    }
    done(null, payload);
  });
}

/** How long a refused upload's connection stays open, unread, so the client can read the answer. */
const LINGER_MS = 2000;

/**
 * Stops reading a request body for good, and closes the connection once the answer is out. The
 * close lingers a moment: closing with unread data sends a reset, which can wipe the answer from
 * the client's buffers before it reads it (nginx's "lingering close", without the draining).
 */
function stopReading(request: FastifyRequest["raw"]) {
  request.unpipe();
  request.pause();
  const socket = request.socket;
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/**
 * The bytes of an uploaded file, refused with `tooLarge` the moment it passes the part's size
 * limit: waiting for the part to end (as `toBuffer` does) would read an oversized body to its end.
 */
export function readUploadedFile(part: MultipartFile, tooLarge: () => AppError): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    part.file.on("data", (chunk: Buffer) => chunks.push(chunk));
    part.file.on("limit", () => reject(tooLarge()));
    part.file.on("error", reject);
    part.file.on("end", () => (part.file.truncated ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
  });
}

/**
 * What a contract check found wrong with a field, in the asker's language (zod words its issues in
 * English only). The issue's code and bounds are what `createValidationError` kept of it.
 */
function issueText(v: { keyword: string; message?: string; params?: Record<string, unknown> }, lang: ReturnType<typeof requestLanguage>) {
  const p = v.params ?? {};
  const bound = (key: "minimum" | "maximum") => String(p[key]);
  const unit = p.origin === "string" ? "string" : p.origin === "array" || p.origin === "set" ? "array" : "number";
  switch (v.keyword) {
    case "invalid_type":
      // zod says what it received in its message only: a missing field received undefined.
      return translate(/received undefined$/.test(v.message ?? "") ? "fieldMissing" : "fieldWrongType", lang, {
        expected: String(p.expected),
      });
    case "too_small":
      return translate(unit === "string" ? "fieldTooShort" : unit === "array" ? "fieldTooFew" : "fieldTooSmall", lang, {
        n: bound("minimum"),
      });
    case "too_big":
      return translate(unit === "string" ? "fieldTooLong" : unit === "array" ? "fieldTooMany" : "fieldTooLarge", lang, {
        n: bound("maximum"),
      });
    case "invalid_value":
      return translate("fieldNotAllowed", lang, { values: ((p.values as unknown[]) ?? []).map(String).join(lang === "zh" ? "、" : ", ") });
    case "invalid_format":
      return translate("fieldFormat", lang);
    case "unrecognized_keys":
      return translate("fieldUnknown", lang, { keys: ((p.keys as unknown[]) ?? []).map(String).join(", ") });
    default:
      return translate("fieldInvalid", lang);
  }
}

/** One handler writes every error as the envelope; 5xx internals are logged, never sent. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const lang = requestLanguage(request.headers);
    if (error instanceof AppError) return sendError(request, reply, error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A contract's own check names a message (e.g. `urlInvalid`): that message, in the asker's language.
      const named = error.validation.map((v) => v.message).find((m): m is MessageKey => !!m && Object.hasOwn(messages, m));
      if (named) return reply.status(400).send({ code: 400, msg: translate(named, lang), data: null });
      const detail = error.validation
        .map((v) => `${v.instancePath.replace(/^\//, "").replace(/\//g, ".") || "body"} ${issueText(v, lang)}`.trim())
        .join("; ");
      return reply.status(400).send({ code: 400, msg: translate("badRequest", lang, { detail }), data: null });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, "response did not match its contract");
      return reply.status(500).send({ code: 500, msg: translate("internal", lang), data: null });
    }
    if (isBadInputFromDatabase(error)) {
      request.log.warn({ err: error }, "input refused by the database");
      return reply.status(400).send({ code: 400, msg: translate("badRequest", lang, { detail: "value" }), data: null });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, "unhandled error");
      return reply.status(500).send({ code: 500, msg: translate("internal", lang), data: null });
    }
    if (status === 429) return reply.status(429).send({ code: 429, msg: translate("tooMany", lang, { seconds: 60 }), data: null });
    // Framework 4xx (bad JSON, body too large, wrong content type): the message is safe to show.
    return reply.status(status).send({ code: status, msg: translate("badRequest", lang, { detail: error.message }), data: null });
  });
  app.setNotFoundHandler((request, reply) => {
    const lang = requestLanguage(request.headers);
    reply.status(404).send({ code: 404, msg: translate("notFound", lang), data: null });
  });
}
