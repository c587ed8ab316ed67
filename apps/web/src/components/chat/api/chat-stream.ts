import { type ChatEvent, type ChatRequest, parseChatEvent } from "@agentfair/contracts";
import i18n from "../../../i18n";
import { API } from "../../../lib/http";
import { getToken } from "../../../lib/storage";

export class ChatRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * POST /agent/agent_runtime/chat: no bearer header (the spec's chat call), the token travels in
 * the body. Reads the JSON event lines as they arrive; aborting the signal closes the request,
 * which stops the model on the server.
 */
export async function streamChat(body: Omit<ChatRequest, "token">, opts: { signal: AbortSignal; onEvent: (e: ChatEvent) => void }) {
  const res = await fetch(`${API.runtime}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", lang: i18n.language === "en" ? "en" : "zh" },
    body: JSON.stringify({ ...body, token: getToken() }),
    signal: opts.signal,
  });
  if (!res.ok || !res.body) {
    let msg = "";
    try {
      msg = ((await res.json()) as { msg?: string }).msg ?? "";
    } catch {
      msg = "";
    }
    throw new ChatRequestError(msg, res.status);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let nl = buffer.indexOf("\n");
    while (nl >= 0) {
      const event = parseChatEvent(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      if (event) opts.onEvent(event);
      nl = buffer.indexOf("\n");
    }
  }
  const last = parseChatEvent(buffer);
  if (last) opts.onEvent(last);
}
