import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createSafeFetch } from "../../platform/net.ts";
import { openSecret, sealSecret } from "../../platform/secret.ts";
import type { ModelRow } from "./models.repository.ts";
import { OFFLINE_BASE_URL, offlineChatModel, offlineEmbeddingModel } from "./offline.ts";

/**
 * The one provider layer: every model is an OpenAI-compatible endpoint (OpenAI, DeepSeek,
 * Qwen/DashScope, Zhipu, Moonshot, Ollama, vLLM) reached through safe fetch, except the offline
 * demo models (base URL `local://offline`), served in process.
 */
export interface ResolvedModel {
  row: ModelRow;
  apiKey: string | undefined;
  fetch: typeof fetch;
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

const chatModels = new WeakMap<ResolvedModel, ReturnType<ReturnType<typeof providerFor>["chatModel"]>>();
/** The chat model of a resolved model, built once per resolved model (every reply asks). */
export function chatModelOf(model: ResolvedModel) {
  let chat = chatModels.get(model);
  if (!chat) {
    chat = providerFor(model).chatModel(model.row.modelId);
    chatModels.set(model, chat);
  }
  return chat;
}
export const embeddingModelOf = (model: ResolvedModel) => providerFor(model).embeddingModel(model.row.modelId);

export const safeFetchFor = (row: Pick<ModelRow, "allowPrivate">, allowHosts: string[]) =>
  createSafeFetch({ allowPrivate: row.allowPrivate, allowHosts });

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

/** API keys at rest (the platform's one way to keep secrets). */
export const encryptKey = (secret: string, plain: string) => sealSecret(secret, "models", plain);
export const decryptKey = (secret: string, stored: string) => openSecret(secret, "models", stored);
