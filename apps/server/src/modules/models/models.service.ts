import { type ModelInfo, type ModelInput, type ModelTestResult, type ModelType, modelInput } from "@agentfair/contracts";
import { embed, generateText } from "ai";
import type { Caller } from "../../platform/auth.ts";
import { AppError, badRequest, forbidden, notFound } from "../../platform/errors.ts";
import { translate, type MessageKey } from "../../platform/messages.ts";
import { EVERYTHING } from "../../platform/invalidation.ts";
import { BlockedAddressError } from "../../platform/net.ts";
import type { Platform } from "../../platform/platform.ts";
import { type ModelRow, ModelsRepository } from "./models.repository.ts";
import { OFFLINE_BASE_URL, OFFLINE_CHAT_MODEL, OFFLINE_EMBEDDING_MODEL, OFFLINE_RERANK_MODEL } from "./offline.ts";
import {
  chatModelOf,
  decryptKey,
  embeddingModelOf,
  encryptKey,
  type ResolvedModel,
  rerank,
  safeClientsFor,
  transcribe,
} from "./provider.ts";

const minuteWindow = (now = Date.now()) => new Date(Math.floor(now / 60_000) * 60_000);

/** Model management and the one way the runtime gets a usable model. */
export class ModelsService {
  private readonly repo: ModelsRepository;
  /** Enabled models per tenant scope, cached briefly: every reply asks, edits are rare. */
  private readonly cache = new Map<string, { at: number; rows: Promise<ModelRow[]> }>();
  private static readonly CACHE_MS = 5_000;

  constructor(private readonly platform: Platform) {
    this.repo = new ModelsRepository(platform.db);
    // key: a tenant id, "" for the platform's models (in every tenant's list), EVERYTHING after missed messages
    platform.invalidation.on("models", (key) => {
      if (key === "" || key === EVERYTHING) this.cache.clear();
      else this.cache.delete(key);
      // Changes are rare: this also forgets the models that were deleted.
      this.connections.clear();
    });
  }

  /** Seeds Model management from MODEL_BASE_URL / MODEL_API_KEY / MODEL_NAME (and EMBEDDING_MODEL, AUDIO_MODEL, RERANK_MODEL) once. */
  async seedFromEnv() {
    const c = this.platform.config;
    if (!c.MODEL_BASE_URL || !c.MODEL_NAME) return this.seedOffline();
    if (!(await this.repo.claimSeed("models_seeded"))) return;
    const apiKeyEnc = c.MODEL_API_KEY ? encryptKey(this.platform.secret, c.MODEL_API_KEY) : null;
    // Set by the operator in the environment: a private (local) base URL is allowed.
    const base = { tenantId: null, baseUrl: c.MODEL_BASE_URL, apiKeyEnc, allowPrivate: true, isDefault: true, enabled: true };
    const seeded = [await this.repo.insert({ ...base, name: c.MODEL_NAME, type: "LLM", modelId: c.MODEL_NAME })];
    if (c.EMBEDDING_MODEL)
      seeded.push(await this.repo.insert({ ...base, name: c.EMBEDDING_MODEL, type: "EMBEDDING", modelId: c.EMBEDDING_MODEL }));
    if (c.AUDIO_MODEL) await this.repo.insert({ ...base, name: c.AUDIO_MODEL, type: "AUDIO", modelId: c.AUDIO_MODEL });
    if (c.RERANK_MODEL) seeded.push(await this.repo.insert({ ...base, name: c.RERANK_MODEL, type: "RERANK", modelId: c.RERANK_MODEL }));
    // The operator's models take over from the offline demo ones as the defaults.
    for (const row of seeded) await this.repo.clearDefault(row.type, null, row.id);
    this.platform.log.info({ model: c.MODEL_NAME }, "models seeded from the environment");
  }

  /** The demo without a model service: the offline demo models as the defaults, once (an administrator may delete them). */
  private async seedOffline() {
    const c = this.platform.config;
    if (!c.SEED_DEMO || !c.OFFLINE_MODEL) return;
    const base = { tenantId: null, baseUrl: OFFLINE_BASE_URL, apiKeyEnc: null, allowPrivate: false, isDefault: true, enabled: true };
    if (await this.repo.claimSeed("offline_models_seeded")) {
      await this.repo.insert({ ...base, name: "离线演示模型", type: "LLM", modelId: OFFLINE_CHAT_MODEL });
      await this.repo.insert({ ...base, name: "离线演示向量模型", type: "EMBEDDING", modelId: OFFLINE_EMBEDDING_MODEL });
      this.platform.log.info("no MODEL_BASE_URL: the offline demo models were added (Model management; replace them with a real model)");
    }
    // Claimed on its own: installations seeded before the rerank type get it too.
    if (await this.repo.claimSeed("offline_rerank_seeded"))
      await this.repo.insert({ ...base, name: "离线演示重排模型", type: "RERANK", modelId: OFFLINE_RERANK_MODEL });
  }

  private toInfo(row: ModelRow): ModelInfo {
    return {
      id: row.id,
      name: row.name,
      type: row.type as ModelType,
      baseUrl: row.baseUrl,
      modelId: row.modelId,
      hasApiKey: !!row.apiKeyEnc,
      defaultMode: row.defaultMode as ModelInfo["defaultMode"],
      contextWindow: row.contextWindow,
      rpmLimit: row.rpmLimit,
      inputTpmLimit: row.inputTpmLimit,
      outputTpmLimit: row.outputTpmLimit,
      enabled: row.enabled,
      isDefault: row.isDefault,
      allowPrivate: row.allowPrivate,
      tenantId: row.tenantId,
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  /**
   * Who manages which models. Platform administrators: every model. A tenant administrator: only
   * its own tenant's models (another tenant's and the platform's are not found for it; the
   * platform's are not listed either: their base URLs and limits are the operator's business, and
   * its users still fall back to them by name in the model choice). Anyone else: no permission.
   */
  private scopeOf(caller: Caller): { tenantId: string | null; all: boolean } {
    if (caller.isAdmin) return { tenantId: null, all: true };
    if (caller.isTenantAdmin && !caller.tenantIsDefault) return { tenantId: caller.tenantId, all: false };
    throw forbidden();
  }

  /** The model a manager may change; any other is reported as not found. */
  private async managed(caller: Caller, id: string) {
    const scope = this.scopeOf(caller);
    const row = await this.repo.get(id);
    if (!row || (!scope.all && row.tenantId !== scope.tenantId)) throw notFound();
    return { row, scope };
  }

  /** Drops cached model lists of a scope, in every process: a platform model is in every tenant's list. */
  private forget(tenantId: string | null) {
    return this.platform.invalidate("models", tenantId ?? "");
  }

  async list(caller: Caller) {
    const scope = this.scopeOf(caller);
    const rows = scope.all ? await this.repo.listAll() : await this.repo.listOwn(scope.tenantId as string);
    return rows.map((r) => this.toInfo(r));
  }

  /** Enabled chat models (LLM, vision) of the caller's scope, or those of one type, names only: for the studio's model choice. */
  async options(caller: Caller, type?: "EMBEDDING" | "RERANK") {
    const rows = await this.repo.list(caller.tenantIsDefault ? null : caller.tenantId);
    return rows
      .filter((r) => r.enabled && (type ? r.type === type : r.type === "LLM" || r.type === "VISION"))
      .map((r) => ({ id: r.id, name: r.name, type: r.type as ModelType, isDefault: r.isDefault }));
  }

  /** A platform administrator adds a platform model; a tenant administrator one of its tenant (tenantId never from the body). */
  async create(caller: Caller, input: ModelInput) {
    const scope = this.scopeOf(caller);
    const { settings, apiKey } = this.formFor(scope, input);
    const row = await this.repo.insert({
      tenantId: scope.tenantId,
      ...settings,
      apiKeyEnc: apiKey ? encryptKey(this.platform.secret, apiKey) : null,
    });
    if (row.isDefault) await this.repo.clearDefault(row.type, row.tenantId, row.id);
    await this.forget(row.tenantId);
    return this.toInfo(row);
  }

  async update(caller: Caller, id: string, input: ModelInput) {
    const { row: existing, scope } = await this.managed(caller, id);
    const { settings, apiKey, clearApiKey } = this.formFor(scope, input);
    const apiKeyEnc = clearApiKey ? null : apiKey ? encryptKey(this.platform.secret, apiKey) : existing.apiKeyEnc;
    const row = await this.repo.update(id, { ...settings, apiKeyEnc });
    if (row.isDefault) await this.repo.clearDefault(row.type, row.tenantId, row.id);
    await this.forget(row.tenantId);
    return this.toInfo(row);
  }

  async remove(caller: Caller, id: string) {
    const { row } = await this.managed(caller, id);
    await this.repo.remove(id);
    await this.forget(row.tenantId);
  }

  /**
   * A model's form: the columns it sets, and its key. A private or loopback base URL is for operators and
   * platform administrators only: a tenant administrator's model never allows one, so safe
   * fetch refuses such addresses for it.
   */
  private formFor(scope: { all: boolean }, input: ModelInput) {
    const data = modelInput.parse(input);
    const settings = settingsOf(data);
    return { settings: scope.all ? settings : { ...settings, allowPrivate: false }, apiKey: data.apiKey, clearApiKey: data.clearApiKey };
  }

  /**
   * Per model, its key decrypted and its clients made once, until its connection settings change:
   * the rows are read again every few seconds, and a new read of the same model keeps them.
   */
  private readonly connections = new Map<string, { settings: string; connection: Omit<ResolvedModel, "row"> }>();
  /** Per cached row, what its callers are given. */
  private readonly resolved = new WeakMap<ModelRow, ResolvedModel>();

  private resolve(row: ModelRow): ResolvedModel {
    let model = this.resolved.get(row);
    if (!model) {
      model = { row, ...this.connectionOf(row) };
      this.resolved.set(row, model);
    }
    return model;
  }

  private connectionOf(row: ModelRow) {
    const settings = JSON.stringify([row.baseUrl, row.modelId, row.apiKeyEnc, row.allowPrivate]);
    const known = this.connections.get(row.id);
    if (known?.settings === settings) return known.connection;
    let apiKey: string | undefined;
    try {
      apiKey = row.apiKeyEnc ? decryptKey(this.platform.secret, row.apiKeyEnc) : undefined;
    } catch {
      // A key encrypted under another secret cannot be used; the call then fails upstream, clearly.
      apiKey = undefined;
    }
    const connection = { apiKey, ...safeClientsFor(row, this.platform.config.NET_ALLOW_HOSTS) };
    this.connections.set(row.id, { settings, connection });
    return connection;
  }

  /**
   * The model a reply runs on: the agent's chosen one when usable, else the default of the type
   * (the tenant's own before the platform's), else any enabled one. null when none is usable.
   */
  async usable(tenantId: string | null, type: ModelType, preferredId?: string | null): Promise<ResolvedModel | null> {
    const key = tenantId ?? "";
    let hit = this.cache.get(key);
    if (!hit || Date.now() - hit.at > ModelsService.CACHE_MS) {
      // A Drizzle query runs again on every await: resolve it once, so the cache holds rows.
      hit = { at: Date.now(), rows: Promise.resolve(this.repo.list(tenantId)) };
      this.cache.set(key, hit);
      hit.rows.catch(() => this.cache.delete(key));
    }
    const rows = (await hit.rows).filter((r) => r.enabled);
    const ofType = (t: ModelType) => rows.filter((r) => r.type === t);
    const preferred = preferredId
      ? rows.find((r) => r.id === preferredId && (r.type === type || (type === "LLM" && r.type === "VISION")))
      : undefined;
    const candidates = ofType(type);
    const pick =
      preferred ??
      candidates.find((r) => r.isDefault && r.tenantId === tenantId) ??
      candidates.find((r) => r.isDefault) ??
      candidates[0] ??
      (type === "LLM" ? ofType("VISION")[0] : undefined);
    return pick ? this.resolve(pick) : null;
  }

  /** Per-minute limits (0 disables): requests and input tokens before a call. */
  async admit(model: ResolvedModel, estimatedInputTokens: number) {
    const { row } = model;
    const window = minuteWindow();
    if (row.outputTpmLimit > 0 && (await this.repo.windowCount(`model:${row.id}:out`, window)) >= row.outputTpmLimit)
      throw new AppError("modelRateLimited", 429);
    if (row.inputTpmLimit > 0) {
      const used = await this.repo.windowCount(`model:${row.id}:in`, window);
      if (used + estimatedInputTokens > row.inputTpmLimit) throw new AppError("modelRateLimited", 429);
    }
    if (row.rpmLimit > 0) {
      const count = await this.repo.addToWindow(`model:${row.id}:req`, window, 1);
      if (count > row.rpmLimit) throw new AppError("modelRateLimited", 429);
    }
  }

  /** Counts the tokens a finished call used toward the minute's limits. */
  async record(model: ResolvedModel, usage: { inputTokens: number; outputTokens: number }) {
    const window = minuteWindow();
    if (model.row.inputTpmLimit > 0 && usage.inputTokens > 0)
      await this.repo.addToWindow(`model:${model.row.id}:in`, window, usage.inputTokens);
    if (model.row.outputTpmLimit > 0 && usage.outputTokens > 0)
      await this.repo.addToWindow(`model:${model.row.id}:out`, window, usage.outputTokens);
  }

  /** "Test connection": one tiny real call to the model. */
  async test(caller: Caller, id: string, lang: "zh" | "en"): Promise<ModelTestResult> {
    const { row, scope } = await this.managed(caller, id);
    const model = this.resolve(row);
    const started = Date.now();
    const signal = AbortSignal.timeout(20_000);
    try {
      if (row.type === "EMBEDDING") await embed({ model: embeddingModelOf(model), value: "ping", abortSignal: signal, maxRetries: 0 });
      else if (row.type === "RERANK") await rerank(model, "ping", ["ping", "pong"], signal);
      else if (row.type === "AUDIO") {
        const res = await model.fetch(`${row.baseUrl.replace(/\/+$/, "")}/models`, {
          headers: model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {},
          signal,
        });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
      } else await generateText({ model: chatModelOf(model), prompt: "ping", maxOutputTokens: 5, abortSignal: signal, maxRetries: 0 });
      return { ok: true, message: translate("modelConnectionOk", lang), latencyMs: Date.now() - started };
    } catch (err) {
      // A refused local model server (Ollama, vLLM) is allowed by a switch only platform administrators have.
      const hint = scope.all && !row.allowPrivate && blockedAddress(err);
      const message = hint ? translate("modelBlockedAddressAllowHint", lang) : describeModelError(err, lang);
      return { ok: false, message, latencyMs: Date.now() - started };
    }
  }

  /**
   * Relevance of documents to a query by the RERANK model (the preferred one, else the default); null when
   * there is none. Errors (the service, its rate limits) are the caller's to handle.
   */
  async rerank(tenantId: string | null, preferredId: string | null | undefined, query: string, documents: string[], signal?: AbortSignal) {
    const model = await this.usable(tenantId, "RERANK", preferredId);
    if (!model) return null;
    const tokens = Math.ceil((query.length + documents.reduce((n, d) => n + d.length, 0)) / 2);
    await this.admit(model, tokens);
    const scores = await rerank(model, query, documents, signal);
    await this.record(model, { inputTokens: tokens, outputTokens: 0 });
    return scores;
  }

  async transcribe(tenantId: string | null, audio: Buffer, filename: string, mimeType: string, signal?: AbortSignal) {
    const model = await this.usable(tenantId, "AUDIO");
    if (!model) throw badRequest("noAudioModel");
    await this.admit(model, 0);
    try {
      return await transcribe(model, audio, filename, mimeType, signal);
    } catch (err) {
      this.platform.log.warn({ err }, "transcription failed");
      throw badRequest("transcriptionFailed");
    }
  }
}

/** The error and what caused it, as the AI SDK wraps them (cause, lastError of retries, errors). */
function* causes(err: unknown) {
  let e: unknown = err;
  for (let i = 0; i < 5 && e; i++) {
    yield e;
    e = (e as { cause?: unknown }).cause ?? (e as { lastError?: unknown }).lastError ?? (e as { errors?: unknown[] }).errors?.at(-1);
  }
}

const blockedAddress = (err: unknown) => [...causes(err)].some((e) => e instanceof BlockedAddressError);

/** A model error as a message for people, without internals (addresses, keys). */
export function describeModelError(err: unknown, lang: "zh" | "en"): string {
  for (const e of causes(err)) {
    if (e instanceof BlockedAddressError) return translate("modelBlockedAddress", lang);
    if (e instanceof AppError) return translate(e.key as MessageKey, lang, e.params);
  }
  const status = (err as { statusCode?: number }).statusCode;
  const code = (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
  const detail = status ? `HTTP ${status}` : code ? String(code) : (err as Error)?.name === "AbortError" ? "timeout" : "network error";
  return translate("modelCallFailed", lang, { detail });
}

/** The columns a model's form sets directly (the API key is encrypted separately). */
function settingsOf(data: ReturnType<typeof modelInput.parse>) {
  const { apiKey: _apiKey, clearApiKey: _clearApiKey, ...settings } = data;
  return settings;
}
