import type { ChatEvent, ChatRequest } from "@agentfair/contracts";
import i18n from "../../../i18n";
import { API, http } from "../../../lib/http";
import { getToken } from "../../../lib/storage";

/** Refusals the membership page answers (the server's `data.reason`): open or upgrade a plan, or top up. */
const REFUSALS = [
  "membershipRequired",
  "memberFeatureRequired",
  "freeChatsExhausted",
  "dailyChatsExhausted",
  "balanceInsufficient",
] as const;
export type ChatRefusal = (typeof REFUSALS)[number];
const isRefusal = (reason: unknown): reason is ChatRefusal => (REFUSALS as readonly unknown[]).includes(reason);

export class ChatRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly reason?: ChatRefusal,
  ) {
    super(message);
  }
}

/**
 * POST /agent/agent_runtime/chat: no bearer header (the spec's chat call), the token travels in
 * the body. Reads the JSON event lines as they arrive. Closing the request does not stop the reply
 * (it can be read again with resumeChat): the stop button calls stopReply.
 */
export async function streamChat(body: Omit<ChatRequest, "token">, opts: { signal: AbortSignal; onEvent: (e: ChatEvent) => void }) {
  const parser = eventParser();
  const res = await fetch(`${API.runtime}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", lang: i18n.language === "en" ? "en" : "zh" },
    body: JSON.stringify({ ...body, token: getToken() }),
    signal: opts.signal,
  });
  if (!res.ok || !res.body) {
    let msg = "";
    let reason: ChatRefusal | undefined;
    try {
      const body = (await res.json()) as { msg?: string; data?: { reason?: string } | null };
      msg = body.msg ?? "";
      if (isRefusal(body.data?.reason)) reason = body.data.reason;
    } catch {
      msg = "";
    }
    throw new ChatRequestError(msg, res.status, reason);
  }
  await readEvents(res.body, await parser, opts.onEvent);
}

/**
 * The events' schema (and zod, 25 KB gzipped) loads with the first reply, not with the page: asked
 * for as the request leaves, it is there before the answer's first line. A refused or failed request
 * never awaits it: a failure to load it is then not an unhandled rejection of the page.
 */
const eventParser = () => {
  const parser = import("@agentfair/contracts/chat-stream").then((m) => m.parseChatEvent);
  parser.catch(() => undefined);
  return parser;
};

/** Turns JSON event lines into events as they arrive. */
async function readEvents(body: ReadableStream, parseChatEvent: (line: string) => ChatEvent | null, onEvent: (e: ChatEvent) => void) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let nl = buffer.indexOf("\n");
    while (nl >= 0) {
      const event = parseChatEvent(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      if (event) onEvent(event);
      nl = buffer.indexOf("\n");
    }
  }
  const last = parseChatEvent(buffer);
  if (last) onEvent(last);
}

/**
 * GET /chat_stream (beyond the spec): a reply's events after the first `after`, from whichever
 * server process answers (a dropped connection, a session opened again while its reply runs).
 */
export async function resumeChat(uuid: string, after: number, opts: { signal: AbortSignal; onEvent: (e: ChatEvent) => void }) {
  const query = new URLSearchParams({ uuid, after: String(after) });
  const parser = eventParser();
  const res = await fetch(`${API.runtime}/chat_stream?${query}`, {
    headers: { authorization: `Bearer ${getToken()}`, lang: i18n.language === "en" ? "en" : "zh" },
    signal: opts.signal,
  });
  if (!res.ok || !res.body) throw new ChatRequestError("", res.status);
  await readEvents(res.body, await parser, opts.onEvent);
}

/** POST /stop_reply (beyond the spec): the stop button; the reply then ends as stopped on its stream. */
export function stopReply(uuid: string) {
  return http.post<null>(`${API.runtime}/stop_reply`, { uuid }, { keepOnNavigate: true });
}
