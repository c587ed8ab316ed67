import { PASS_THROUGH_CODE, SUCCESS_CODES, type Envelope } from "@agentfair/contracts";
import i18n from "../i18n";
import { getReportToken, getToken } from "./storage";

/** An error the http client has already turned into a message for people (doc 1 §8). */
export class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: number,
  ) {
    super(message);
  }
}

type Notify = (text: string) => void;
let notifyError: Notify = (text) => console.error(text);
let onTokenInvalid: () => void = () => {};

/** The app wires toasts and the sign-out redirect once at start. */
export function configureHttp(opts: { notifyError: Notify; onTokenInvalid: () => void }) {
  notifyError = opts.notifyError;
  onTokenInvalid = opts.onTokenInvalid;
}

const pending = new Set<AbortController>();
/** Cancels pending requests; the router calls it before each navigation. */
export function cancelPending() {
  for (const c of pending) c.abort();
  pending.clear();
}

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** Do not show a toast on failure: the caller shows its own message. */
  silent?: boolean;
  /** Survives navigation (e.g. polling dialogs, streams). */
  keepOnNavigate?: boolean;
  signal?: AbortSignal;
}

function statusMessage(status: number, serverMsg?: string): string {
  const t = i18n.t.bind(i18n);
  if (status === 403) return t("http.tokenInvalid");
  if (status >= 500) return t("http.serverError", { status });
  if (serverMsg) return serverMsg;
  const known: Record<number, string> = {
    400: t("http.badRequest"),
    401: t("http.unauthorized"),
    404: t("http.notFound"),
    408: t("http.timeout"),
  };
  return known[status] ?? t("http.connectionError", { status });
}

export async function request<T>(url: string, opts: RequestOptions = {}): Promise<T> {
  const controller = new AbortController();
  if (!opts.keepOnNavigate) pending.add(controller);
  opts.signal?.addEventListener("abort", () => controller.abort());
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null) search.set(k, String(v));
  const qs = search.toString();
  const headers: Record<string, string> = { lang: i18n.language === "en" ? "en" : "zh" };
  // Report calls carry the report token of the second cookie (the web token when there is none).
  const token = url.startsWith("/prod-api/") ? (getReportToken() ?? getToken()) : getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  const fail = (message: string, status: number, code?: number): never => {
    if (!opts.silent) notifyError(message);
    throw new HttpError(message, status, code);
  };
  let res: Response;
  try {
    res = await fetch(qs ? `${url}?${qs}` : url, { method: opts.method ?? "GET", headers, body, signal: controller.signal });
  } catch {
    pending.delete(controller);
    if (controller.signal.aborted) throw new HttpError(i18n.t("common.requestCancelled"), 0);
    return fail(i18n.t("http.connectionFailed"), 0);
  }
  pending.delete(controller);
  let envelope: Envelope<T> | undefined;
  try {
    envelope = (await res.json()) as Envelope<T>;
  } catch {
    envelope = undefined;
  }
  // 403 to a request that carried a token: the session is gone (anonymous ones are the guard's).
  if (res.status === 403 && token) onTokenInvalid();
  if (!res.ok) return fail(statusMessage(res.status, envelope?.msg), res.status, envelope?.code);
  if (!envelope) return fail(statusMessage(500), 500);
  if (envelope.code === PASS_THROUGH_CODE) return envelope as unknown as T;
  if (!(SUCCESS_CODES as readonly number[]).includes(envelope.code)) return fail(envelope.msg, res.status, envelope.code);
  return envelope.data;
}

export const http = {
  get: <T>(url: string, query?: RequestOptions["query"], opts?: RequestOptions) => request<T>(url, { ...opts, query }),
  post: <T>(url: string, body?: unknown, opts?: RequestOptions) => request<T>(url, { ...opts, method: "POST", body }),
  put: <T>(url: string, body?: unknown, opts?: RequestOptions) => request<T>(url, { ...opts, method: "PUT", body }),
  delete: <T>(url: string, body?: unknown, opts?: RequestOptions) => request<T>(url, { ...opts, method: "DELETE", body }),
};

/** Call-path prefixes of the spec. */
export const API = {
  agent: "/agent_api",
  knowledge: "/wendao_api",
  builder: "/aiagent_api",
  runtime: "/agent/agent_runtime",
  report: "/prod-api",
} as const;
