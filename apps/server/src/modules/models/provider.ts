import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createSafeFetch, createSafeRequest, type SafeRequest } from "../../platform/net.ts";
import type { CompletionModel } from "../../runtime/follow-ups.ts";
import type { ReplyModel } from "../../runtime/reply.ts";
import { chatCompletion, streamChatCompletion } from "./chat-stream.ts";
import { openSecret, sealSecret } from "../../platform/secret.ts";
import type { ModelRow } from "./models.repository.ts";
import { OFFLINE_BASE_URL, offlineChatModel, offlineEmbeddingModel, offlineRerank } from "./offline.ts";

/**
 * The one provider layer: every model is an OpenAI-compatible endpoint (OpenAI, DeepSeek,
 * Qwen/DashScope, Zhipu, Moonshot, Ollama, vLLM) reached through safe fetch, except the offline
 * demo models (base URL `local://offline`), served in process.
 */
export interface ResolvedModel {
  row: ModelRow;
  apiKey: string | undefined;
  fetch: typeof fetch;
  /** The same guard as `fetch`, answering with node's response stream (a reply's streaming call). */
  request: SafeRequest;
  /** Made on first use, and shared by every read of the same model with the same connection settings. */
  clients: { chat?: LanguageModelV3; reply?: ChatClient };
}

export function providerFor(model: ResolvedModel) {
  if (model.row.baseUrl === OFFLINE_BASE_URL) return { chatModel: offlineChatModel, embeddingModel: offlineEmbeddingModel };
  return createOpenAICompatible({
    name: "agentfair",
    baseURL: model.row.baseUrl.replace(/\/+$/, ""),
    apiKey: model.apiKey,
    fetch: model.fetch,
    includeUsage: true,
  });
}

/** The AI SDK chat model of a resolved model, for the calls other than a chat reply (workflows, rules, insight, tools, the connection test). */
export function chatModelOf(model: ResolvedModel): LanguageModelV3 {
  model.clients.chat ??= providerFor(model).chatModel(model.row.modelId);
  return model.clients.chat;
}

/** A reply's model calls: its answer, streamed, and its follow-up questions, in one answer. */
export type ChatClient = ReplyModel & CompletionModel;

/**
 * What a chat reply calls: the light client of chat-stream.ts (it says why), or the offline demo
 * model. The AI SDK's chat model (chatModelOf) is for the other calls.
 */
export function replyModelOf(model: ResolvedModel): ChatClient {
  if (model.row.baseUrl === OFFLINE_BASE_URL) return chatModelOf(model);
  if (!model.clients.reply) {
    const endpoint = { baseUrl: model.row.baseUrl, modelId: model.row.modelId, apiKey: model.apiKey, request: model.request };
    model.clients.reply = {
      doStream: (options) => streamChatCompletion(endpoint, options),
      doGenerate: (options) => chatCompletion(endpoint, options),
    };
  }
  return model.clients.reply;
}

export const embeddingModelOf = (model: ResolvedModel) => providerFor(model).embeddingModel(model.row.modelId);

/** A model's outbound clients, under its policy (private targets only when the model allows them). */
export const safeClientsFor = (row: Pick<ModelRow, "allowPrivate">, allowHosts: string[]) => ({
  fetch: createSafeFetch({ allowPrivate: row.allowPrivate, allowHosts }),
  request: createSafeRequest({ allowPrivate: row.allowPrivate, allowHosts }),
  clients: {},
});

/** OpenAI-compatible transcription (POST {base}/audio/transcriptions, multipart). */
export async function transcribe(model: ResolvedModel, audio: Buffer, filename: string, mimeType: string, signal?: AbortSignal) {
  if (model.row.baseUrl === OFFLINE_BASE_URL) throw new Error("the offline demo models do not transcribe speech");
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(audio)], { type: mimeType }), filename);
  form.append("model", model.row.modelId);
  form.append("language", "zh");
  const headers: Record<string, string> = {};
  if (model.apiKey) headers.authorization = `Bearer ${model.apiKey}`;
  const req = new Request(`${model.row.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`, { method: "POST", body: form, headers });
  const res = await model.fetch(req.url, {
    method: "POST",
    headers: Object.fromEntries(req.headers.entries()),
    body: Buffer.from(await req.arrayBuffer()),
    signal,
  });
  if (!res.ok) throw new Error(`transcription failed: HTTP ${res.status}`);
  const data = (await res.json()) as { text?: string };
  return (data.text ?? "").trim();
}

/**
 * Rerank (the `/rerank` protocol of Jina, Cohere, Xinference, SiliconFlow, vLLM): POST {base}/rerank with
 * {model, query, documents, top_n} → {results: [{index, relevance_score}]}, best first. The offline demo
 * model scores in process (a lexical cross-scorer, see offline.ts). Returns the relevance per document
 * index (documents the service left out get none).
 */
export async function rerank(model: ResolvedModel, query: string, documents: string[], signal?: AbortSignal) {
  if (model.row.baseUrl === OFFLINE_BASE_URL) return offlineRerank(query, documents);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (model.apiKey) headers.authorization = `Bearer ${model.apiKey}`;
  const res = await model.fetch(`${model.row.baseUrl.replace(/\/+$/, "")}/rerank`, {
    method: "POST",
    headers,
    body: JSON.stringify({ model: model.row.modelId, query, documents, top_n: documents.length, return_documents: false }),
    signal,
  });
  // statusCode: what describeModelError shows (as for the AI SDK's errors)
  if (!res.ok) throw Object.assign(new Error(`rerank failed: HTTP ${res.status}`), { statusCode: res.status });
  const data = (await res.json()) as { results?: unknown };
  if (!Array.isArray(data.results)) throw new Error("rerank failed: no results in the reply");
  const scores = new Map<number, number>();
  for (const r of data.results as { index?: unknown; relevance_score?: unknown }[]) {
    const index = Number(r?.index);
    const score = Number(r?.relevance_score);
    if (Number.isInteger(index) && index >= 0 && index < documents.length && Number.isFinite(score)) scores.set(index, score);
  }
  return scores;
}

/** API keys at rest (the platform's one way to keep secrets). */
export const encryptKey = (secret: string, plain: string) => sealSecret(secret, "models", plain);
export const decryptKey = (secret: string, stored: string) => openSecret(secret, "models", stored);
