import http from "node:http";
import { type ChatEvent, parseChatEvents } from "@agentfair/contracts";

export interface ChatRun {
  events: ChatEvent[];
  /** ms from sending to the first content event (NaN when none came). */
  firstTokenMs: number;
  totalMs: number;
  /** HTTP status, or the connection error. */
  status: number;
  failure?: string;
  /** The start of the body, to show what came instead of events. */
  head: string;
}

/** One chat reply over real HTTP, read as it streams; `onFirstToken` is called when its first content arrives. */
export function streamChat(base: string, body: object, onFirstToken?: () => void): Promise<ChatRun> {
  return new Promise((resolve) => {
    const started = performance.now();
    let firstTokenMs = Number.NaN;
    let buf = "";
    const url = new URL("/agent/agent_runtime/chat", base);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json" },
      },
      (res) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buf += chunk;
          if (Number.isNaN(firstTokenMs) && buf.includes('"type":"content"')) {
            firstTokenMs = performance.now() - started;
            onFirstToken?.();
          }
        });
        const done = (failure?: string) =>
          resolve({
            events: parseChatEvents(buf),
            firstTokenMs,
            totalMs: performance.now() - started,
            status: res.statusCode ?? 0,
            failure,
            head: buf.slice(0, 300),
          });
        res.on("end", () => done());
        res.on("error", (err) => done(err.message));
      },
    );
    req.on("error", (err) =>
      resolve({ events: [], firstTokenMs, totalMs: performance.now() - started, status: 0, failure: err.message, head: "" }),
    );
    req.end(JSON.stringify(body));
  });
}

export const pct = (xs: number[], p: number) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : Number.NaN;
};

/** A new agent of this user's (quick create); its owner chats with the draft (release: false). */
export async function ownAgent(base: string, token: string): Promise<string> {
  const res = await fetch(`${base}/aiagent_api/agent/quick/add`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  const agentId = ((await res.json()) as { data?: { agentId?: string } }).data?.agentId;
  if (!agentId) throw new Error(`quick create failed: ${res.status}`);
  return agentId;
}
