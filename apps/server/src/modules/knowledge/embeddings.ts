import { APICallError } from "@ai-sdk/provider";
import { embedMany } from "ai";
import { embeddingModelOf, type ResolvedModel } from "../models/provider.ts";

/** Texts per embedding call: small enough for every provider's limit, large enough to be quick. */
export const EMBED_BATCH = 32;
const ATTEMPTS = 6;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** How long a 429 or 5xx asks us to wait: its Retry-After (seconds or a date), else a growing pause. */
function pauseFor(err: unknown, attempt: number): number | null {
  const call = APICallError.isInstance(err)
    ? err
    : APICallError.isInstance((err as { cause?: unknown })?.cause)
      ? (err as { cause: APICallError }).cause
      : null;
  if (!call) return null;
  const status = call.statusCode ?? 0;
  if (status !== 429 && status < 500) return null;
  const header = call.responseHeaders?.["retry-after"];
  if (header) {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : new Date(header).getTime() - Date.now();
    if (ms >= 0) return Math.min(ms, 60_000);
  }
  return Math.min(500 * 2 ** attempt, 30_000);
}

/**
 * Embeds texts through the AI SDK's embedMany (OpenAI-compatible /embeddings), one batch per call;
 * a rate-limited (429) or failing (5xx) call is retried after the pause the provider asks for.
 */
export async function embedTexts(model: ResolvedModel, texts: string[], signal?: AbortSignal): Promise<number[][]> {
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    const values = texts.slice(i, i + EMBED_BATCH);
    for (let attempt = 0; ; attempt++) {
      try {
        const { embeddings } = await embedMany({ model: embeddingModelOf(model), values, maxRetries: 0, abortSignal: signal });
        out.push(...embeddings);
        break;
      } catch (err) {
        const pause = attempt + 1 < ATTEMPTS ? pauseFor(err, attempt) : null;
        if (pause === null) throw err;
        await sleep(pause, signal);
      }
    }
  }
  return out;
}

/** Cosine similarity mapped to 0–1 (negative similarity counts as unrelated). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || !a.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? Math.max(0, dot / Math.sqrt(na * nb)) : 0;
}
