import { boolean, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns.ts";

/** Model management: one row per configured provider model. */
export const models = pgTable(
  "models",
  {
    id: id(),
    /** null: available to the whole platform; otherwise only to this tenant. */
    tenantId: text("tenant_id"),
    name: text("name").notNull(),
    /** LLM, VISION, AUDIO, EMBEDDING, RERANK */
    type: text("type").notNull(),
    baseUrl: text("base_url").notNull(),
    /** AES-256-GCM with a key derived from the platform secret; never returned by the API. */
    apiKeyEnc: text("api_key_enc"),
    modelId: text("model_id").notNull(),
    defaultMode: text("default_mode").notNull().default("balanced"),
    contextWindow: integer("context_window").notNull().default(32000),
    /** Per-minute limits; 0 disables the limit. */
    rpmLimit: integer("rpm_limit").notNull().default(0),
    inputTpmLimit: integer("input_tpm_limit").notNull().default(0),
    outputTpmLimit: integer("output_tpm_limit").notNull().default(0),
    enabled: boolean("enabled").notNull().default(true),
    isDefault: boolean("is_default").notNull().default(false),
    /** Private or loopback base URL allowed (operator env or administrator allow-list). */
    allowPrivate: boolean("allow_private").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("models_tenant_type").on(t.tenantId, t.type)],
);
