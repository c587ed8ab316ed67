import { createHash, randomUUID } from "node:crypto";
import {
  type AgentKnowledgeSettings,
  KNOWLEDGE_FILE_EXTENSIONS,
  KNOWLEDGE_FILE_MAX_BYTES,
  type KnowledgeBase,
  type KnowledgeFile,
  type KnowledgeFileState,
  type Language,
  type Segment,
  type SegmentOptionsInput,
} from "@agentfair/contracts";
import { type Caller, requireAccess } from "../../platform/auth.ts";
import { AppError, badRequest, notFound, tokenInvalid } from "../../platform/errors.ts";
import type { QueuedJob } from "../../platform/jobs.ts";
import { type MessageKey, translate } from "../../platform/messages.ts";
import type { Platform } from "../../platform/platform.ts";
import type { Tx } from "../../db/client.ts";
import { insertWithinLimit } from "../../platform/count-limit.ts";
import type { Billing } from "../billing/billing.seam.ts";
import type { FilesService } from "../files/files.service.ts";
import { sniffImage } from "../files/files.service.ts";
import type { ModelsService } from "../models/models.service.ts";
import type { ResolvedModel } from "../models/provider.ts";
import {
  countTokens,
  decodeText,
  INGEST_VERSION,
  IngestError,
  ingest,
  normalizeOptions,
  type Segment as IngestSegment,
} from "./ingest/index.ts";
import { EMBED_BATCH, embedTexts } from "./embeddings.ts";
import { indexTerms } from "./keywords.ts";
import { type BaseRow, type KnowledgeFileRow, KnowledgeRepository, type SegmentInsert, type SegmentRow } from "./knowledge.repository.ts";
import { countVectors, detectVectorKind, dropVectors, type Hit, search, storeVectors, type VectorKind } from "./search.ts";
import { unpackZip } from "./zip.ts";

export const PROCESS_FILE_JOB = "knowledge.process-file";
export const EMBED_BASE_JOB = "knowledge.embed-base";
/** A failed or killed file job is retried this many times, then the file shows FAILED. */
export const FILE_JOB_RETRIES = 3;
/** Accepted knowledge uploads per user and hour (each up to 15 MB). */
export const KNOWLEDGE_UPLOADS_PER_HOUR = 300;
const SIZE_LABEL = `${KNOWLEDGE_FILE_MAX_BYTES / 1024 / 1024}MB`;
/** Defaults of a retrieval call that does not say. */
export const DEFAULT_VECTOR_WEIGHT = 0.7;
/** Fused hits a rerank model reorders before the top K is taken. */
export const rerankPoolFor = (topK: number) => Math.min(Math.max(topK * 4, 20), 50);
/** A rerank service slower than this is given up on (the fused order answers). */
const RERANK_TIMEOUT_MS = 15_000;

/** How a retrieval runs: fusion, threshold and top K, optionally reranked. */
export interface RetrieveOptions {
  topK: number;
  vectorWeight: number;
  threshold: number;
  rerank?: boolean;
  rerankModelId?: string | null;
}

/** What a rerank model reads of a hit: its title or question with its text. */
const rerankDocument = (h: Hit) => [h.title ?? h.question, h.content].filter(Boolean).join("\n");

const extensionOf = (name: string) => (name.includes(".") ? (name.toLowerCase().split(".").pop() ?? "") : "");

/** A segment id from what makes it: the same file, parse, ingest version and position give the same id. */
export function segmentId(fileId: string, parseNo: number, position: number) {
  const h = createHash("sha256").update(`${fileId}:${parseNo}:${INGEST_VERSION}:${position}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The bytes are what the name says: PDFs start with %PDF, Office files are zips, images are sniffed. */
function contentMatches(ext: string, data: Buffer) {
  if (ext === "pdf") return data.subarray(0, 5).toString("latin1") === "%PDF-";
  if (ext === "docx" || ext === "xlsx" || ext === "pptx" || ext === "zip") return data[0] === 0x50 && data[1] === 0x4b;
  if (ext === "png") return sniffImage(data) === "image/png";
  if (ext === "jpg" || ext === "jpeg") return sniffImage(data) === "image/jpeg";
  // Text formats: no NUL bytes in the first KB.
  return !data.subarray(0, 1024).includes(0);
}

/** Bytes as the plan card counts knowledge space: MB, with a decimal or two. */
const megabytes = (bytes: number) => `${Number((bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1))} MB`;

/** The bytes Q&A pairs keep (question and answer), as the knowledge space counts them. */
const qaBytes = (pairs: string[][]) => pairs.reduce((n, [q, a]) => n + Buffer.byteLength(q) + Buffer.byteLength(a), 0);

/** What retrieval for an agent needs of it. */
export interface KnowledgeAgent {
  ownerId: string;
  tenantId: string;
  bindings: { knowledgeBases: string[] };
  knowledge: AgentKnowledgeSettings;
}

/** Knowledge bases, their folders, files, segments, processing jobs and retrieval. */
export class KnowledgeService {
  readonly repo: KnowledgeRepository;
  vectorKind: VectorKind = "array";

  constructor(
    private readonly platform: Platform,
    private readonly deps: { files: FilesService; models: ModelsService; billing?: Pick<Billing, "planLimits"> },
  ) {
    this.repo = new KnowledgeRepository(platform.db);
    platform.jobs.define<{ fileId: string; parseNo: number }>(
      PROCESS_FILE_JOB,
      { retryLimit: FILE_JOB_RETRIES, retryDelaySeconds: 5, expireInSeconds: 30 * 60, concurrency: 2 },
      (job) => this.processFile(job),
    );
    platform.jobs.define<{ baseId: string }>(
      EMBED_BASE_JOB,
      { retryLimit: FILE_JOB_RETRIES, retryDelaySeconds: 10, expireInSeconds: 60 * 60 },
      (job) => this.embedBase(job.data.baseId),
    );
  }

  /** Reads how the migration stored vectors and says so: without pgvector, search scans exactly. */
  async init() {
    this.vectorKind = await detectVectorKind(this.platform.db);
    if (this.vectorKind === "array")
      this.platform.log.warn(
        "knowledge: pgvector is not available on this PostgreSQL; embeddings are stored as real[] and vector search scans them exactly (keyword search is unaffected)",
      );
    else this.platform.log.info("knowledge: pgvector available, embeddings use HNSW indexes");
  }

  // ---- knowledge space ------------------------------------------------------------------------------

  /** The writer's plan space in bytes (knowledgeSpace MB); null: no limit (exempt callers, no template). */
  private async spaceLimit(caller: Caller) {
    return (await this.deps.billing?.planLimits(caller))?.knowledgeBytes ?? null;
  }

  private spaceFull(limit: number, used: number, bytes: number) {
    return badRequest("knowledgeSpaceFull", { limit: megabytes(limit), used: megabytes(used), size: megabytes(bytes) });
  }

  /** A refusal before anything is stored, when the owner's bases have no room for `bytes` more. */
  private async checkSpace(ownerId: string, limit: number | null, bytes: number) {
    if (limit === null) return;
    const used = await this.repo.usedBytes(ownerId);
    if (used + bytes > limit) throw this.spaceFull(limit, used, bytes);
  }

  /**
   * Inserts rows that keep `bytes` more in the owner's bases, when they fit in the plan's space: the
   * owner's total is counted under the owner's lock in the transaction that inserts, so parallel
   * uploads cannot pass the limit together.
   */
  private keepWithinSpace<T>(ownerId: string, limit: number | null, bytes: number, insert: (tx: Tx) => Promise<T>) {
    return insertWithinLimit(this.platform.db, `knowledge-bytes:${ownerId}`, limit, {
      adding: bytes,
      count: (tx) => this.repo.usedBytes(ownerId, tx),
      refuse: (max, used) => this.spaceFull(max, used, bytes),
      insert,
    });
  }

  /** What a knowledge page shows of the space: bytes used by the caller's bases and the plan's limit (null: none). */
  async space(caller: Caller | null) {
    if (!caller) throw tokenInvalid();
    return { usedBytes: await this.repo.usedBytes(caller.userId), limitBytes: await this.spaceLimit(caller) };
  }

  // ---- access -----------------------------------------------------------------------------------

  /** The one access check of bases, their files and segments: owners and administrators; anyone else: not found. */
  private async accessBase(caller: Caller | null, id: string, action: "read" | "write"): Promise<BaseRow> {
    if (!caller) throw tokenInvalid();
    const base = await this.repo.base(id);
    requireAccess(caller, base && { ownerId: base.ownerId, tenantId: base.tenantId }, action);
    return base!;
  }

  private async accessFile(caller: Caller | null, baseId: string, fileId: string, action: "read" | "write") {
    const base = await this.accessBase(caller, baseId, action);
    const file = await this.repo.file(fileId);
    if (!file || file.baseId !== base.id) throw notFound();
    return { base, file };
  }

  private async accessSegment(caller: Caller | null, baseId: string, id: string, action: "read" | "write") {
    const base = await this.accessBase(caller, baseId, action);
    const segment = await this.repo.segment(id);
    if (!segment || segment.baseId !== base.id) throw notFound();
    return { base, segment };
  }

  // ---- bases ------------------------------------------------------------------------------------

  private toBase(row: BaseRow, caller: Caller | null): KnowledgeBase {
    return {
      id: row.id,
      name: row.name,
      visibility: row.visibility,
      uri: row.uri,
      embeddingModelId: row.embeddingModelId,
      createdTime: row.createdAt.toISOString(),
      updatedTime: row.updatedAt?.toISOString() ?? null,
      createdBy: row.ownerId,
      createdByMe: row.ownerId === caller?.userId,
    };
  }

  /** Administrators see every base (createdByMe narrows to their own); others their own, in their tenant. Signed out: none. */
  async page(caller: Caller | null, q: { name?: string; page: number; limit: number; createdByMe?: boolean }) {
    if (!caller) return { list: [], total: 0 };
    const mine = !caller.isAdmin || q.createdByMe;
    const { list, total } = await this.repo.pageBases({
      ownerId: mine ? caller.userId : undefined,
      tenantId: mine ? caller.tenantId : undefined,
      name: q.name?.trim() || undefined,
      page: q.page,
      limit: q.limit,
    });
    return { list: list.map((r) => this.toBase(r, caller)), total };
  }

  async get(caller: Caller | null, id: string) {
    return this.toBase(await this.accessBase(caller, id, "read"), caller);
  }

  private async checkEmbeddingModel(caller: Caller, id: string | null | undefined) {
    if (!id) return;
    const model = await this.deps.models.usable(caller.tenantId, "EMBEDDING", id);
    if (model?.row.id !== id) throw badRequest("knowledgeEmbeddingModelNotFound");
  }

  async create(caller: Caller | null, input: { name?: string; visibility?: string; uri?: string; embeddingModelId?: string | null }) {
    if (!caller) throw tokenInvalid();
    const name = input.name?.trim();
    if (!name) throw badRequest("knowledgeNameRequired");
    await this.checkEmbeddingModel(caller, input.embeddingModelId);
    try {
      const row = await this.repo.insertBase({
        tenantId: caller.tenantId,
        ownerId: caller.userId,
        name,
        visibility: input.visibility || "private",
        uri: input.uri ?? "",
        embeddingModelId: input.embeddingModelId ?? null,
      });
      return this.toBase(row, caller);
    } catch (err) {
      this.platform.log.error({ err }, "knowledge base creation failed");
      throw new AppError("knowledgeCreateFailed", 500);
    }
  }

  async update(
    caller: Caller | null,
    input: { id: string; name?: string; visibility?: string; uri?: string; embeddingModelId?: string | null },
  ) {
    const base = await this.accessBase(caller, input.id, "write");
    const name = input.name === undefined ? base.name : input.name.trim();
    if (!name) throw badRequest("knowledgeNameRequired");
    if (input.embeddingModelId !== undefined) await this.checkEmbeddingModel(caller!, input.embeddingModelId);
    const modelChanged = input.embeddingModelId !== undefined && input.embeddingModelId !== base.embeddingModelId;
    const row = await this.repo.updateBase(base.id, {
      name,
      visibility: input.visibility ?? base.visibility,
      uri: input.uri ?? base.uri,
      embeddingModelId: input.embeddingModelId === undefined ? base.embeddingModelId : input.embeddingModelId,
    });
    // A new embedding model re-embeds the stored segments; nothing is parsed again.
    if (modelChanged) await this.queueEmbedding(base.id);
    return this.toBase(row, caller);
  }

  async remove(caller: Caller | null, ids: string[]) {
    const bases = [];
    for (const id of [...new Set(ids)]) bases.push(await this.accessBase(caller, id, "write"));
    const files = await this.repo.filesOfBases(bases.map((b) => b.id));
    await this.repo.deleteBases(bases.map((b) => b.id));
    for (const f of files) await this.deps.files.deleteStored(f.storedFileId).catch(() => undefined);
  }

  // ---- folders ----------------------------------------------------------------------------------

  private folderName(name: string) {
    const n = name.trim();
    if (!n || n.includes("/") || n.includes("\\")) throw badRequest("folderNameInvalid");
    return n;
  }

  async createFolder(caller: Caller | null, baseId: string, name: string) {
    const base = await this.accessBase(caller, baseId, "write");
    const n = this.folderName(name);
    if (await this.repo.folderByName(base.id, n)) throw badRequest("folderNameTaken");
    const row = await this.repo.insertFolder({ baseId: base.id, name: n });
    return { id: row.id, name: row.name, createdTime: row.createdAt.toISOString() };
  }

  async renameFolder(caller: Caller | null, baseId: string, folderId: string, name: string) {
    const base = await this.accessBase(caller, baseId, "write");
    const folder = await this.repo.folder(folderId);
    if (!folder || folder.baseId !== base.id) throw notFound();
    const n = this.folderName(name);
    if (await this.repo.folderByName(base.id, n, folder.id)) throw badRequest("folderNameTaken");
    await this.repo.renameFolder(folder.id, n);
  }

  /** Deleting a folder keeps its files (they move to the base's top level). */
  async deleteFolder(caller: Caller | null, baseId: string, folderId: string) {
    const base = await this.accessBase(caller, baseId, "write");
    const folder = await this.repo.folder(folderId);
    if (!folder || folder.baseId !== base.id) throw notFound();
    await this.repo.deleteFolder(folder.id);
  }

  // ---- files ------------------------------------------------------------------------------------

  private toFile(row: KnowledgeFileRow, segmentCount: number, lang: Language): KnowledgeFile {
    return {
      id: row.id,
      fileId: row.id,
      name: row.name,
      size: row.size,
      folderId: row.folderId,
      state: row.state as KnowledgeFileState,
      progress: row.progress,
      error: row.error ? translate(row.error.key as MessageKey, lang, row.error.params) : null,
      committed: row.committed,
      options: (row.options as SegmentOptionsInput | null) ?? null,
      segmentCount,
      uploadTime: row.createdAt.toISOString(),
      updatedTime: row.updatedAt.toISOString(),
    };
  }

  async contents(caller: Caller | null, baseId: string, lang: Language) {
    const base = await this.accessBase(caller, baseId, "read");
    const [folders, files, counts] = await Promise.all([
      this.repo.folders(base.id),
      this.repo.files(base.id),
      this.repo.segmentCounts(base.id),
    ]);
    return {
      folders: folders.map((f) => ({ id: f.id, name: f.name, createdTime: f.createdAt.toISOString() })),
      files: files.map((f) => this.toFile(f, counts.get(f.id) ?? 0, lang)),
    };
  }

  async file(caller: Caller | null, baseId: string, fileId: string, lang: Language) {
    const { file, base } = await this.accessFile(caller, baseId, fileId, "read");
    const counts = await this.repo.segmentCounts(base.id);
    return this.toFile(file, counts.get(file.id) ?? 0, lang);
  }

  /**
   * Stores an uploaded document (not yet segmented), or each document of a zip after checking
   * the zip as a whole. The answer's fileId is the first file's.
   */
  async upload(caller: Caller | null, baseId: string, upload: { name: string; data: Buffer }, folderId?: string) {
    const base = await this.accessBase(caller, baseId, "write");
    if (folderId) {
      const folder = await this.repo.folder(folderId);
      if (!folder || folder.baseId !== base.id) throw notFound();
    }
    if (upload.data.length > KNOWLEDGE_FILE_MAX_BYTES) throw badRequest("fileTooLarge", { size: SIZE_LABEL });
    const ext = extensionOf(upload.name);
    const documents =
      ext === "zip"
        ? await unpackZip(upload.data, {
            extensions: KNOWLEDGE_FILE_EXTENSIONS,
            maxFileBytes: KNOWLEDGE_FILE_MAX_BYTES,
            sizeLabel: SIZE_LABEL,
          })
        : [upload];
    for (const doc of documents) {
      const docExt = extensionOf(doc.name);
      if (!(KNOWLEDGE_FILE_EXTENSIONS as readonly string[]).includes(docExt)) throw badRequest("fileFormatNotSupported");
      if (doc.data.length === 0 || !contentMatches(docExt, doc.data)) throw badRequest("fileFormatNotSupported");
    }
    if (!documents.length) throw badRequest("fileRequired");
    // The plan's knowledge space (of the base's owner's bases): refused before anything is stored, and
    // checked again under the owner's lock with the rows, where a refusal deletes what was stored.
    const limit = await this.spaceLimit(caller!);
    const bytes = documents.reduce((n, d) => n + d.data.length, 0);
    await this.checkSpace(base.ownerId, limit, bytes);
    await this.platform.rateLimiter.take(`knowledge-upload:${caller!.userId}`, KNOWLEDGE_UPLOADS_PER_HOUR, 3600);
    const saved: { id: string; name: string; size: number }[] = [];
    let stored: { fileId: string; name: string }[];
    try {
      for (const doc of documents) {
        const file = await this.deps.files.saveFile(caller!, {
          kind: "knowledge",
          name: doc.name,
          contentType: "application/octet-stream",
          data: doc.data,
        });
        saved.push({ id: file.id, name: file.name, size: doc.data.length });
      }
      stored = await this.keepWithinSpace(base.ownerId, limit, bytes, async (tx) => {
        const rows = [];
        for (const file of saved) {
          const row = await this.repo.insertFile(
            { baseId: base.id, folderId: folderId ?? null, storedFileId: file.id, name: file.name, size: file.size },
            tx,
          );
          rows.push({ fileId: row.id, name: row.name });
        }
        return rows;
      });
    } catch (err) {
      for (const file of saved) await this.deps.files.deleteStored(file.id).catch(() => undefined);
      throw err;
    }
    await this.repo.touchBase(base.id);
    return { fileId: stored[0].fileId, files: stored };
  }

  /** Moves a file into a folder of the same base, or to the top level (null). */
  async moveFile(caller: Caller | null, baseId: string, fileId: string, folderId: string | null) {
    const { file, base } = await this.accessFile(caller, baseId, fileId, "write");
    if (folderId) {
      const folder = await this.repo.folder(folderId);
      if (!folder || folder.baseId !== base.id) throw notFound();
    }
    await this.repo.updateFile(file.id, { folderId });
  }

  async deleteFile(caller: Caller | null, baseId: string, fileId: string) {
    const { file, base } = await this.accessFile(caller, baseId, fileId, "write");
    // Segments and their vectors go with the file (foreign keys cascade).
    await this.repo.deleteFile(file.id);
    await this.deps.files.deleteStored(file.storedFileId).catch(() => undefined);
    await this.repo.touchBase(base.id);
  }

  /** Options as the ingestion library takes them; bad ones (e.g. an invalid regex) are the caller's error. */
  private checkedOptions(options: SegmentOptionsInput) {
    try {
      const { adjust: _adjust, ...ingestOptions } = options;
      normalizeOptions(ingestOptions);
    } catch (err) {
      if (err instanceof IngestError) throw badRequest("badRequest", { detail: err.message });
      throw err;
    }
    return options;
  }

  /**
   * The one code path of preview and commit: the file's segments for these options, with the ids a commit stores,
   * after the wizard's adjustments (edits and deletions by position; positions and ids stay those of the parse).
   */
  private async segmentsOf(file: KnowledgeFileRow, options: SegmentOptionsInput, parseNo: number, onProgress?: (p: number) => void) {
    const data = await this.deps.files.readStored(file.storedFileId);
    const { adjust, ...ingestOptions } = options;
    const segments: IngestSegment[] = await ingest({ name: file.name, data: new Uint8Array(data) }, ingestOptions, { onProgress });
    const deleted = new Set(adjust?.deletes ?? []);
    const edits = new Map((adjust?.edits ?? []).map((e) => [e.position, e.content.trim()]));
    return segments
      .filter((s) => !deleted.has(s.position))
      .map((s) => {
        const content = edits.get(s.position);
        const changed = content !== undefined && content !== s.content;
        const adjusted = changed
          ? { ...s, content, tokens: countTokens(content), ...(s.question !== undefined ? { answer: content } : {}), edited: true }
          : s;
        return { ...adjusted, id: segmentId(file.id, parseNo, s.position) };
      });
  }

  /**
   * Why a file could not be segmented, in words its uploader reads (in their language); the parser's own detail
   * (English, technical) goes to the log, and only an unexpected failure shows it.
   */
  private ingestFailure(err: unknown, method: string): { key: MessageKey; params?: Record<string, string> } {
    if (err instanceof IngestError) {
      if (err.reason !== "empty")
        this.platform.log.warn({ reason: err.reason, detail: err.message }, "knowledge: a file could not be segmented");
      switch (err.reason) {
        case "unsupportedFormat":
          return { key: "fileFormatNotSupported" };
        case "unreadable":
          return { key: "knowledgeFileUnreadable" };
        case "tooLarge":
          return { key: "knowledgeFileTooLarge" };
        case "timeout":
          return { key: "knowledgeParseTimeout" };
        case "empty":
          return { key: method === "table" ? "knowledgeNoTable" : "knowledgeNoText" };
      }
      return { key: "knowledgeParseFailed", params: { detail: err.message } };
    }
    return { key: "knowledgeParseFailed", params: { detail: (err as Error)?.message ?? String(err) } };
  }

  async preview(caller: Caller | null, baseId: string, fileId: string, options: SegmentOptionsInput) {
    const { file } = await this.accessFile(caller, baseId, fileId, "read");
    this.checkedOptions(options);
    try {
      return { segments: await this.segmentsOf(file, options, file.parseNo + 1) };
    } catch (err) {
      const failure = this.ingestFailure(err, options.method);
      throw badRequest(failure.key, failure.params);
    }
  }

  /** Starts processing with these options: a new parse, queued as a job. */
  async commit(caller: Caller | null, baseId: string, fileId: string, options: SegmentOptionsInput) {
    const { file } = await this.accessFile(caller, baseId, fileId, "write");
    this.checkedOptions(options);
    const row = await this.repo.beginParse(file.id, options as Record<string, unknown>);
    await this.platform.jobs.send(PROCESS_FILE_JOB, { fileId: row.id, parseNo: row.parseNo });
    return { fileId: row.id, state: row.state as KnowledgeFileState, progress: row.progress };
  }

  /**
   * The job of one file: parse and segment (0–40 %), store the segments (UPLOADED, 50 %), embed
   * them (VECTORIZING up to 95 %, then VECTORIZED), DONE. Every write is keyed by file, parse,
   * ingest version and position, so a retried job (a killed worker) continues without duplicates.
   * A newer commit of the same file makes an older job stop.
   */
  async processFile(job: QueuedJob<{ fileId: string; parseNo: number }>) {
    const { fileId, parseNo } = job.data;
    const file = await this.repo.file(fileId);
    if (!file || file.parseNo !== parseNo || !file.options) return;
    const set = (values: Parameters<KnowledgeRepository["updateFile"]>[1]) => this.repo.updateFile(fileId, values, parseNo);
    let segments: (IngestSegment & { id: string; edited?: boolean })[];
    let last = 0;
    try {
      segments = await this.segmentsOf(file, file.options as SegmentOptionsInput, parseNo, (p) => {
        const percent = Math.floor((Math.max(0, Math.min(100, p)) * 40) / 100);
        if (percent >= last + 5) {
          last = percent;
          set({ progress: percent }).catch(() => undefined);
        }
      });
    } catch (err) {
      // Parsing is deterministic: trying again would fail the same way.
      await set({ state: "FAILED", error: this.ingestFailure(err, (file.options as SegmentOptionsInput).method) });
      return;
    }
    try {
      if (!segments.length) {
        await set({ state: "FAILED", error: { key: "knowledgeNoText" } });
        return;
      }
      await this.repo.insertSegments(segments.map((s) => this.segmentRow(file.baseId, fileId, parseNo, s)));
      await this.repo.dropEarlierParses(fileId, parseNo);
      if (!(await set({ state: "UPLOADED", progress: 50 }))) return;
      const base = await this.repo.base(file.baseId);
      const model = base && (await this.embeddingModelOf(base));
      if (model) {
        await set({ state: "VECTORIZING" });
        await this.embedMissing([file.baseId], model, fileId, (done, total) =>
          set({ progress: 50 + Math.floor((45 * done) / Math.max(total, 1)) }).then(() => undefined),
        );
      }
      await set({ state: "VECTORIZED", progress: 95 });
      await set({ state: "DONE", progress: 100 });
      await this.repo.touchBase(file.baseId);
    } catch (err) {
      if (job.retryCount >= job.retryLimit) {
        await set({ state: "FAILED", error: { key: "knowledgeEmbedFailed", params: { detail: (err as Error)?.message ?? String(err) } } });
        return;
      }
      throw err;
    }
  }

  private segmentRow(
    baseId: string,
    fileId: string | null,
    parseNo: number,
    s: IngestSegment & { id: string; edited?: boolean },
  ): SegmentInsert {
    return {
      id: s.id,
      edited: s.edited ?? false,
      baseId,
      fileId,
      parseNo,
      ingestVersion: INGEST_VERSION,
      position: s.position,
      content: s.content,
      title: s.title ?? null,
      question: s.question ?? null,
      answer: s.answer ?? null,
      tokens: s.tokens,
      headTerms: indexTerms([s.title, s.question].filter(Boolean).join("\n")),
      bodyTerms: indexTerms(s.answer ?? s.content),
    };
  }

  // ---- embeddings -------------------------------------------------------------------------------

  /** The base's embedding model (its own choice, else the tenant's or platform's default); null: keyword search only. */
  async embeddingModelOf(base: BaseRow): Promise<ResolvedModel | null> {
    const model = await this.deps.models.usable(base.tenantId, "EMBEDDING", base.embeddingModelId);
    return model && model.row.type === "EMBEDDING" ? model : null;
  }

  /** Vectors are stored per model: another model (or the same row pointed at another model id) is another key. */
  static modelKey(model: ResolvedModel) {
    return `${model.row.id}:${model.row.modelId}`;
  }

  private embeddingText(s: { content: string; title: string | null; question: string | null }) {
    return [s.title, s.question, s.content].filter(Boolean).join("\n").slice(0, 8000);
  }

  /** Embeds the segments that have no vector of this model yet, batch by batch (a rerun continues where it stopped). */
  private async embedMissing(
    baseIds: string[],
    model: ResolvedModel,
    fileId: string | undefined,
    progress?: (done: number, total: number) => Promise<void>,
  ) {
    const key = KnowledgeService.modelKey(model);
    const total = await this.repo.segmentCountOfBases(baseIds, fileId);
    for (;;) {
      const batch = await this.repo.segmentsWithoutVector(baseIds, key, EMBED_BATCH * 2, fileId);
      if (!batch.length) return;
      const embeddings = await embedTexts(
        model,
        batch.map((s) => this.embeddingText(s)),
      );
      await storeVectors(
        this.platform.db,
        this.vectorKind,
        batch.map((s, i) => ({ segmentId: s.id, baseId: s.base_id, modelKey: key, embedding: embeddings[i] })),
      );
      await progress?.(await countVectors(this.platform.db, baseIds, key, fileId), total);
    }
  }

  /** Queues (re-)embedding of a base when it has a model; without a queue (tests without workers) it is skipped. */
  private async queueEmbedding(baseId: string) {
    const base = await this.repo.base(baseId);
    if (!base || !(await this.embeddingModelOf(base))) return;
    await this.platform.jobs.send(EMBED_BASE_JOB, { baseId }).catch((err) => this.platform.log.warn({ err }, "embedding job not queued"));
  }

  /** Job: every segment of the base gets a vector of its current model; vectors of other models are dropped. */
  async embedBase(baseId: string) {
    const base = await this.repo.base(baseId);
    if (!base) return;
    const model = await this.embeddingModelOf(base);
    if (!model) return;
    await this.embedMissing([base.id], model, undefined);
    await dropVectors(this.platform.db, { baseId: base.id, exceptModelKey: KnowledgeService.modelKey(model) });
  }

  // ---- segments ---------------------------------------------------------------------------------

  private toSegment(s: SegmentRow): Segment {
    return {
      id: s.id,
      fileId: s.fileId,
      position: s.position,
      content: s.content,
      title: s.title,
      question: s.question,
      answer: s.answer,
      enabled: s.enabled,
      edited: s.edited,
      tokens: s.tokens,
    };
  }

  async segments(caller: Caller | null, baseId: string, q: { fileId?: string; qa?: boolean; page: number; limit: number }) {
    const base = await this.accessBase(caller, baseId, "read");
    if (q.fileId) {
      const file = await this.repo.file(q.fileId);
      if (!file || file.baseId !== base.id) throw notFound();
    }
    const { list, total } = await this.repo.pageSegments(base.id, q);
    return { list: list.map((s) => this.toSegment(s)), total };
  }

  /** A segment added by hand: marked edited, so no re-parse removes it. */
  async addSegment(caller: Caller | null, baseId: string, input: { content: string; fileId?: string; title?: string }) {
    const base = await this.accessBase(caller, baseId, "write");
    const content = input.content.trim();
    if (!content) throw badRequest("segmentEmpty");
    let parseNo = 0;
    if (input.fileId) {
      const file = await this.repo.file(input.fileId);
      if (!file || file.baseId !== base.id) throw notFound();
      parseNo = file.parseNo;
    }
    const id = randomUUID();
    const position = await this.repo.nextPosition(base.id, input.fileId ?? null);
    const row = this.segmentRow(base.id, input.fileId ?? null, parseNo, {
      id,
      position,
      content,
      title: input.title?.trim() || undefined,
      tokens: Math.ceil(content.length / 2),
    });
    // Text of no file counts in the knowledge space; a file's own segments are its bytes, counted already.
    const limit = input.fileId ? null : await this.spaceLimit(caller!);
    await this.keepWithinSpace(base.ownerId, limit, Buffer.byteLength(content), (tx) =>
      this.repo.insertSegments([{ ...row, edited: true }], tx),
    );
    await this.afterSegmentChange(base.id);
    return this.toSegment((await this.repo.segment(id))!);
  }

  /** Editing the content marks the segment edited (kept on re-parse) and re-indexes it; enabling needs no re-index. */
  async updateSegment(caller: Caller | null, baseId: string, id: string, input: { content?: string; enabled?: boolean }) {
    const { segment, base } = await this.accessSegment(caller, baseId, id, "write");
    const values: Partial<SegmentInsert> = {};
    if (input.enabled !== undefined) values.enabled = input.enabled;
    if (input.content !== undefined) {
      const content = input.content.trim();
      if (!content) throw badRequest("segmentEmpty");
      if (content !== segment.content) {
        const qa = segment.question !== null;
        Object.assign(values, {
          content,
          edited: true,
          answer: qa ? content : segment.answer,
          bodyTerms: indexTerms(content),
          tokens: Math.ceil(content.length / 2),
        });
      }
    }
    await this.updateWithinSpace(caller!, base, segment, values);
    if (values.content !== undefined) {
      await dropVectors(this.platform.db, { segmentId: segment.id });
      await this.afterSegmentChange(base.id);
    }
    return this.toSegment((await this.repo.segment(segment.id))!);
  }

  /**
   * Saves an edit of a segment; text of no file (a written segment, a Q&A pair) counts in the
   * knowledge space, so an edit that makes it longer must fit in the room left.
   */
  private async updateWithinSpace(caller: Caller, base: BaseRow, segment: SegmentRow, values: Partial<SegmentInsert>) {
    const bytesOf = (s: { content?: string | null; question?: string | null }) =>
      Buffer.byteLength(s.content ?? "") + Buffer.byteLength(s.question ?? "");
    const growth = segment.fileId === null ? bytesOf({ ...segment, ...values }) - bytesOf(segment) : 0;
    const limit = growth > 0 ? await this.spaceLimit(caller) : null;
    await this.keepWithinSpace(base.ownerId, limit, growth, (tx) => this.repo.updateSegment(segment.id, values, tx));
  }

  async deleteSegment(caller: Caller | null, baseId: string, id: string) {
    const { segment, base } = await this.accessSegment(caller, baseId, id, "write");
    await this.repo.deleteSegment(segment.id);
    await this.repo.touchBase(base.id);
  }

  private async afterSegmentChange(baseId: string) {
    await this.repo.touchBase(baseId);
    await this.queueEmbedding(baseId);
  }

  // ---- Q&A pairs --------------------------------------------------------------------------------

  private qaRow(baseId: string, position: number, question: string, answer: string): SegmentInsert {
    return {
      ...this.segmentRow(baseId, null, 0, {
        id: randomUUID(),
        position,
        content: answer,
        question,
        answer,
        tokens: Math.ceil((question.length + answer.length) / 2),
      }),
      edited: true,
    };
  }

  async addQaPair(caller: Caller | null, baseId: string, input: { question: string; answer: string }) {
    const base = await this.accessBase(caller, baseId, "write");
    const question = input.question.trim();
    const answer = input.answer.trim();
    if (!question || !answer) throw badRequest("qaPairEmpty");
    const row = this.qaRow(base.id, await this.repo.nextPosition(base.id, null), question, answer);
    await this.keepWithinSpace(base.ownerId, await this.spaceLimit(caller!), qaBytes([[question, answer]]), (tx) =>
      this.repo.insertSegments([row], tx),
    );
    await this.afterSegmentChange(base.id);
    return this.toSegment((await this.repo.segment(row.id))!);
  }

  /** Edits a Q&A pair's question and answer (both not empty); it stays marked edited. */
  async updateQaPair(caller: Caller | null, baseId: string, id: string, input: { question: string; answer: string }) {
    const { segment, base } = await this.accessSegment(caller, baseId, id, "write");
    if (segment.question === null) throw notFound();
    const question = input.question.trim();
    const answer = input.answer.trim();
    if (!question || !answer) throw badRequest("qaPairEmpty");
    if (question !== segment.question || answer !== segment.answer) {
      await this.updateWithinSpace(caller!, base, segment, {
        question,
        answer,
        content: answer,
        edited: true,
        headTerms: indexTerms(question),
        bodyTerms: indexTerms(answer),
        tokens: Math.ceil((question.length + answer.length) / 2),
      });
      await dropVectors(this.platform.db, { segmentId: segment.id });
      await this.afterSegmentChange(base.id);
    }
    return this.toSegment((await this.repo.segment(segment.id))!);
  }

  /** CSV import: two columns (question, answer) per row; a header row naming them is skipped. */
  async importQaCsv(caller: Caller | null, baseId: string, file: { name: string; data: Buffer } | null) {
    const base = await this.accessBase(caller, baseId, "write");
    if (!file || extensionOf(file.name) !== "csv") throw badRequest("qaCsvRequired");
    if (file.data.length > KNOWLEDGE_FILE_MAX_BYTES) throw badRequest("fileTooLarge", { size: SIZE_LABEL });
    // Excel on Chinese Windows saves CSV as GBK: decoded as the document reader decodes text (UTF-8, UTF-16, else GB18030).
    const rows = parseCsv(decodeText(file.data));
    if (rows.length && /^(问题|question|q)$/i.test(rows[0][0]?.trim() ?? "")) rows.shift();
    const pairs = rows.map((r) => [r[0]?.trim() ?? "", r[1]?.trim() ?? ""]).filter(([q, a]) => q || a);
    if (!pairs.length) throw badRequest("qaCsvEmpty");
    if (pairs.some(([q, a]) => !q || !a)) throw badRequest("qaPairEmpty");
    let position = await this.repo.nextPosition(base.id, null);
    const segments = pairs.map(([q, a]) => this.qaRow(base.id, position++, q, a));
    await this.keepWithinSpace(base.ownerId, await this.spaceLimit(caller!), qaBytes(pairs), (tx) =>
      this.repo.insertSegments(segments, tx),
    );
    await this.afterSegmentChange(base.id);
    return { imported: pairs.length };
  }

  // ---- retrieval --------------------------------------------------------------------------------

  async retrieval(
    caller: Caller | null,
    baseId: string,
    req: { query: string; topK: number; vectorWeight?: number; threshold?: number; rerank?: boolean; rerankModelId?: string | null },
  ) {
    const base = await this.accessBase(caller, baseId, "read");
    return this.retrieve([base], req.query, {
      topK: req.topK,
      vectorWeight: req.vectorWeight ?? DEFAULT_VECTOR_WEIGHT,
      threshold: req.threshold ?? 0,
      rerank: req.rerank,
      rerankModelId: req.rerankModelId,
    });
  }

  /**
   * Hybrid search over bases; bases sharing an embedding model are searched together, the rest keyword-only.
   * With rerank, the best fused hits above the threshold (a pool of a few times top K) are reordered by the
   * rerank model and the top K of that order returned; without a rerank model, or when it fails, the fused
   * order answers (a warning is logged, the chat goes on).
   */
  async retrieve(bases: BaseRow[], query: string, opts: RetrieveOptions) {
    const topK = opts.rerank ? rerankPoolFor(opts.topK) : opts.topK;
    const terms = indexTerms(query);
    const groups = new Map<string, { model: ResolvedModel | null; ids: string[] }>();
    for (const base of bases) {
      const model = await this.embeddingModelOf(base);
      const key = model ? KnowledgeService.modelKey(model) : "";
      const group = groups.get(key) ?? { model, ids: [] };
      group.ids.push(base.id);
      groups.set(key, group);
    }
    let vectorUsed = false;
    const hits: Hit[] = [];
    for (const [key, group] of groups) {
      let vector: { embedding: number[]; modelKey: string } | undefined;
      if (group.model && (await countVectors(this.platform.db, group.ids, key)) > 0) {
        try {
          vector = { embedding: (await embedTexts(group.model, [query]))[0], modelKey: key };
          vectorUsed = true;
        } catch (err) {
          // Keyword search still answers when the embedding model does not.
          this.platform.log.warn({ err }, "knowledge: query embedding failed, keyword search only");
        }
      }
      const { vectorWeight, threshold } = opts;
      hits.push(...(await search(this.platform.db, this.vectorKind, { baseIds: group.ids, terms, vector, topK, vectorWeight, threshold })));
    }
    hits.sort((a, b) => b.score - a.score);
    const fused = hits.slice(0, topK);
    const reranked = opts.rerank && fused.length ? await this.rerank(bases[0].tenantId, query, fused, opts.rerankModelId) : null;
    return { hits: await this.withFileNames((reranked ?? fused).slice(0, opts.topK)), vectorUsed, reranked: !!reranked };
  }

  /** Each hit with the name of its file, so that a reply's sources say which document they quote. */
  private async withFileNames(hits: Hit[]): Promise<Hit[]> {
    const names = await this.repo.fileNames([...new Set(hits.map((h) => h.fileId).filter((id): id is string => !!id))]);
    return hits.map((h) => ({ ...h, fileName: h.fileId ? (names.get(h.fileId) ?? null) : null }));
  }

  /** The hits reordered by the rerank model's relevance (each carrying it); null without a model or when it fails. */
  private async rerank(tenantId: string, query: string, hits: Hit[], modelId: string | null | undefined): Promise<Hit[] | null> {
    try {
      const scores = await this.deps.models.rerank(
        tenantId,
        modelId,
        query,
        hits.map(rerankDocument),
        AbortSignal.timeout(RERANK_TIMEOUT_MS),
      );
      if (!scores) {
        this.platform.log.warn("knowledge: rerank is on but no rerank model is usable, the fused order is kept");
        return null;
      }
      const relevance = (h: Hit) => h.rerankScore ?? Number.NEGATIVE_INFINITY;
      return hits
        .map((h, i) => (scores.has(i) ? { ...h, rerankScore: Math.round(scores.get(i)! * 10000) / 10000 } : h))
        .sort((a, b) => relevance(b) - relevance(a) || b.score - a.score);
    } catch (err) {
      this.platform.log.warn({ err }, "knowledge: rerank failed, the fused order is kept");
      return null;
    }
  }

  // ---- use in chat ------------------------------------------------------------------------------

  /** The bound bases an agent may read: only those of its owner, in its tenant (anything else bound is ignored). */
  async basesOfAgent(agent: KnowledgeAgent): Promise<BaseRow[]> {
    const ids = agent.bindings.knowledgeBases;
    if (!ids.length) return [];
    const rows = await this.repo.basesByIds(ids);
    return rows.filter((b) => b.ownerId === agent.ownerId && b.tenantId === agent.tenantId);
  }

  async retrieveForAgent(agent: KnowledgeAgent, query: string, overrides: { topK?: number } = {}) {
    const bases = await this.basesOfAgent(agent);
    if (!bases.length || !query.trim()) return { hits: [], vectorUsed: false, reranked: false };
    const s = agent.knowledge;
    return this.retrieve(bases, query, {
      topK: overrides.topK ?? s.topK,
      vectorWeight: s.vectorWeight,
      threshold: s.threshold,
      rerank: s.rerank,
      rerankModelId: s.rerankModelId,
    });
  }

  /**
   * "Answer directly from the knowledge base": the best Q&A pair (its answer) or segment whose
   * fused score reaches the agent's direct threshold; null when none does.
   */
  async directAnswer(agent: KnowledgeAgent, query: string): Promise<{ content: string; hit: Hit } | null> {
    if (!agent.knowledge.directAnswer) return null;
    const bases = await this.basesOfAgent(agent);
    if (!bases.length || !query.trim()) return null;
    const { hits } = await this.retrieve(bases, query, {
      topK: 5,
      vectorWeight: agent.knowledge.vectorWeight,
      threshold: agent.knowledge.directThreshold,
      rerank: agent.knowledge.rerank,
      rerankModelId: agent.knowledge.rerankModelId,
    });
    const top = hits[0];
    if (!top) return null;
    // A Q&A pair about as good as the best hit answers better than a passage.
    const qa = hits.find((h) => h.question !== null);
    const best = qa && qa.score >= top.score - 0.05 ? qa : top;
    return { content: best.answer ?? best.content, hit: best };
  }
}

/** RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF; a comma or a tab separates. */
export function parseCsv(text: string): string[][] {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? "";
  const sep = !firstLine.includes(",") && firstLine.includes("\t") ? "\t" : ",";
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === "") quoted = true;
    else if (ch === sep) {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim()));
}
