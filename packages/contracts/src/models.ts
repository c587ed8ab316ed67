import { z } from "zod";

/** Model types of Model management (doc 2 §9: LLM, vision, audio; embedding and rerank for knowledge retrieval). */
export const modelTypes = ["LLM", "VISION", "AUDIO", "EMBEDDING", "RERANK"] as const;
export const modelType = z.enum(modelTypes);
export type ModelType = z.infer<typeof modelType>;

/** Model modes (doc 2 §9): precise, balanced, creative, custom. */
export const modelModes = ["precise", "balanced", "creative", "custom"] as const;
export const modelMode = z.enum(modelModes);
export type ModelMode = z.infer<typeof modelMode>;

/** Sampling presets of the named modes; custom takes the agent's own values. */
export const MODE_PRESETS: Record<Exclude<ModelMode, "custom">, { temperature: number; topP: number }> = {
  precise: { temperature: 0.2, topP: 0.7 },
  balanced: { temperature: 0.7, topP: 0.9 },
  creative: { temperature: 1.0, topP: 1.0 },
};

/** A model as the API shows it: the API key itself is never returned. */
export const modelInfo = z.object({
  id: z.string(),
  name: z.string(),
  type: modelType,
  baseUrl: z.string(),
  modelId: z.string(),
  hasApiKey: z.boolean(),
  defaultMode: modelMode,
  contextWindow: z.number().int(),
  rpmLimit: z.number().int(),
  inputTpmLimit: z.number().int(),
  outputTpmLimit: z.number().int(),
  enabled: z.boolean(),
  isDefault: z.boolean(),
  allowPrivate: z.boolean(),
  /** null: the whole platform; otherwise the tenant the model belongs to. */
  tenantId: z.string().nullable(),
  updatedAt: z.string(),
});
export type ModelInfo = z.infer<typeof modelInfo>;

const limit = z.number().int().min(0).max(100_000_000);

export const modelInput = z.object({
  name: z.string().trim().min(1).max(64),
  type: modelType,
  baseUrl: z
    .string()
    .trim()
    .max(500)
    // local://offline: the offline demo models served in process (what `npm start` seeds without a model service)
    .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) || v === "local://offline", "urlInvalid"),
  /** Empty keeps the stored key on update; `clearApiKey` removes it. */
  apiKey: z.string().max(500).optional(),
  clearApiKey: z.boolean().optional(),
  modelId: z.string().trim().min(1).max(200),
  defaultMode: modelMode.default("balanced"),
  contextWindow: z.number().int().min(512).max(10_000_000).default(32_000),
  rpmLimit: limit.default(0),
  inputTpmLimit: limit.default(0),
  outputTpmLimit: limit.default(0),
  enabled: z.boolean().default(true),
  isDefault: z.boolean().default(false),
  /** Allow a private or loopback base URL (local Ollama, vLLM); platform administrators only. */
  allowPrivate: z.boolean().default(false),
});
export type ModelInput = z.input<typeof modelInput>;

export const modelTestResult = z.object({ ok: z.boolean(), message: z.string(), latencyMs: z.number() });
export type ModelTestResult = z.infer<typeof modelTestResult>;

/** What anyone building an agent may pick from: enabled chat models, without their settings. */
export const modelOption = z.object({ id: z.string(), name: z.string(), type: modelType, isDefault: z.boolean() });
/**
 * GET /api/models/options?type=EMBEDDING lists the embedding models (a knowledge base's choice), type=RERANK the
 * rerank models (retrieval settings); else chat models.
 */
export const modelOptionsQuery = z.object({ type: z.enum(["EMBEDDING", "RERANK"]).optional() });
export type ModelOption = z.infer<typeof modelOption>;
