import { z } from "zod";
import { pageOf } from "./common.ts";

/** Knowledge bases (doc 2 §2, §3, §7): under /wendao_api/wendao/knowledge, success code 0. */
export const KNOWLEDGE_PAGE_SIZES = [10, 20, 30, 40, 50] as const;
export const KNOWLEDGE_PAGE_SIZE = 10;
/** doc 2 §5, §9: knowledge files are at most 15 MB each. */
export const KNOWLEDGE_FILE_MAX_BYTES = 15 * 1024 * 1024;
/** Document types a base accepts (images are OCR'd); a zip of these imports in bulk. */
export const KNOWLEDGE_FILE_EXTENSIONS = ["pdf", "docx", "xlsx", "csv", "pptx", "txt", "md", "html", "htm", "png", "jpg", "jpeg"] as const;

/** The eleven segmentation methods of doc 2 §9. */
export const SEGMENT_METHODS = [
  "auto",
  "qa",
  "resume",
  "manual",
  "scanned_manual",
  "table",
  "paper",
  "book",
  "laws",
  "ppt",
  "full_text",
] as const;
export type SegmentMethodName = (typeof SEGMENT_METHODS)[number];

/** Knowledge file states (doc 2 §4): queuing, upload complete, vector processing, vector processing complete, knowledge created; or failed. */
export const KNOWLEDGE_FILE_STATES = ["QUEUING", "UPLOADED", "VECTORIZING", "VECTORIZED", "DONE", "FAILED"] as const;
export type KnowledgeFileState = (typeof KNOWLEDGE_FILE_STATES)[number];

const id = z.string().trim().min(1).max(64);
export const knowledgeName = z.string().trim().max(100);

export const knowledgeBase = z.object({
  id: z.string(),
  name: z.string(),
  visibility: z.string(),
  uri: z.string(),
  embeddingModelId: z.string().nullable(),
  createdTime: z.string(),
  updatedTime: z.string().nullable(),
  createdBy: z.string(),
  createdByMe: z.boolean(),
});
export type KnowledgeBase = z.infer<typeof knowledgeBase>;

const boolish = z.preprocess((v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : v), z.boolean());
export const knowledgePageQuery = z.object({
  name: z.string().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(KNOWLEDGE_PAGE_SIZE),
  createdByMe: boolish.optional(),
});
export const knowledgePage = pageOf(knowledgeBase);

export const knowledgeCreateRequest = z.object({
  name: knowledgeName.optional(),
  visibility: z.string().trim().max(32).optional(),
  uri: z.string().trim().max(500).optional(),
  /** An EMBEDDING model of Model management; changing it re-embeds the stored segments. */
  embeddingModelId: id.nullable().optional(),
});
export const knowledgeUpdateRequest = knowledgeCreateRequest.extend({ id });
export const knowledgeDeleteRequest = z.union([z.array(id).max(100), z.object({ ids: z.array(id).max(100) })]);

export const folderRequest = z.object({ name: z.string().max(100) });
export const knowledgeFolder = z.object({ id: z.string(), name: z.string(), createdTime: z.string() });

export const cleaningRules = z.object({
  collapseWhitespace: z.boolean().optional(),
  dropUrls: z.boolean().optional(),
  dropEmails: z.boolean().optional(),
  replace: z
    .array(
      z.object({
        pattern: z.string().min(1).max(200),
        replacement: z.string().max(200),
        flags: z
          .string()
          .regex(/^[gimsu]*$/)
          .optional(),
      }),
    )
    .max(20)
    .optional(),
});
/**
 * The wizard's segment adjustment (beyond the spec): edits and deletions of previewed segments, by position.
 * Preview and commit apply them to the same parse, so what the user approved is what is stored (same ids);
 * an edited segment is marked edited. A merge is an edit of the first plus the deletion of the others.
 */
export const segmentAdjustments = z.object({
  edits: z
    .array(z.object({ position: z.number().int().min(0), content: z.string().trim().min(1).max(20000) }))
    .max(1000)
    .default([]),
  deletes: z.array(z.number().int().min(0)).max(20000).default([]),
});
export type SegmentAdjustments = z.infer<typeof segmentAdjustments>;
export const segmentOptions = z.object({
  method: z.enum(SEGMENT_METHODS),
  chunkSize: z.number().int().min(32).max(8192).optional(),
  overlap: z.number().int().min(0).max(2048).optional(),
  delimiters: z.array(z.string().min(1).max(20)).max(20).optional(),
  cleaning: cleaningRules.optional(),
  adjust: segmentAdjustments.optional(),
});
export type SegmentOptionsInput = z.infer<typeof segmentOptions>;

export const knowledgeFile = z.object({
  id: z.string(),
  fileId: z.string(),
  name: z.string(),
  size: z.number(),
  folderId: z.string().nullable(),
  state: z.enum(KNOWLEDGE_FILE_STATES),
  progress: z.number().int().min(0).max(100),
  /** Why processing failed, in the caller's language; null otherwise. */
  error: z.string().nullable(),
  committed: z.boolean(),
  options: segmentOptions.nullable(),
  segmentCount: z.number().int(),
  uploadTime: z.string(),
  updatedTime: z.string(),
});
export type KnowledgeFile = z.infer<typeof knowledgeFile>;

export const knowledgeContents = z.object({
  folders: z.array(knowledgeFolder),
  files: z.array(knowledgeFile),
});

export const uploadResult = z.object({ fileId: z.string(), files: z.array(z.object({ fileId: z.string(), name: z.string() })) });

/** The caller's knowledge space: bytes kept in their bases and their plan's limit (knowledgeSpace; null: no limit). */
export const knowledgeSpaceUsage = z.object({ usedBytes: z.number().int(), limitBytes: z.number().int().nullable() });
export type KnowledgeSpaceUsage = z.infer<typeof knowledgeSpaceUsage>;

export const previewSegment = z.object({
  id: z.string(),
  position: z.number().int(),
  content: z.string(),
  /** Changed in the segment adjustment step (stored marked edited). */
  edited: z.boolean().optional(),
  title: z.string().optional(),
  question: z.string().optional(),
  answer: z.string().optional(),
  tokens: z.number().int(),
});
export const previewResult = z.object({ segments: z.array(previewSegment) });

export const segment = z.object({
  id: z.string(),
  fileId: z.string().nullable(),
  position: z.number().int(),
  content: z.string(),
  title: z.string().nullable(),
  question: z.string().nullable(),
  answer: z.string().nullable(),
  enabled: z.boolean(),
  edited: z.boolean(),
  tokens: z.number().int(),
});
export type Segment = z.infer<typeof segment>;
export const segmentPageQuery = z.object({
  fileId: id.optional(),
  /** Only Q&A pairs (segments with a question). */
  qa: boolish.optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const segmentPage = pageOf(segment);
export const segmentContent = z.string().max(20000);
export const segmentCreateRequest = z.object({ content: segmentContent, fileId: id.optional(), title: z.string().max(500).optional() });
export const segmentUpdateRequest = z.object({ content: segmentContent.optional(), enabled: z.boolean().optional() });
export const qaPairRequest = z.object({ question: z.string().max(2000), answer: z.string().max(20000) });
/** Move a file into a folder, or to the top level with null (beyond the spec). */
export const fileMoveRequest = z.object({ folderId: id.nullable() });

export const retrievalRequest = z.object({
  query: z.string().trim().min(1).max(2000),
  topK: z.number().int().min(1).max(50).default(5),
  /** Weight of the vector score in the fused score (0–1); the keyword score gets the rest. */
  vectorWeight: z.number().min(0).max(1).optional(),
  /** Hits whose fused score is below this (0–1) are dropped. */
  threshold: z.number().min(0).max(1).optional(),
  /** Rerank the fused hits with a RERANK model (`rerankModelId`, else the default one) before the top K. */
  rerank: z.boolean().optional(),
  rerankModelId: id.nullable().optional(),
});
export const retrievalHit = z.object({
  segmentId: z.string(),
  fileId: z.string().nullable(),
  baseId: z.string(),
  content: z.string(),
  title: z.string().nullable(),
  question: z.string().nullable(),
  answer: z.string().nullable(),
  /** The file the segment came from (null for Q&A pairs and segments added by hand). */
  fileName: z.string().nullable().optional(),
  score: z.number(),
  keywordScore: z.number(),
  vectorScore: z.number(),
  /** The rerank model's relevance (usually 0–1) when the hits were reranked; the order then follows it. */
  rerankScore: z.number().optional(),
});
export type RetrievalHit = z.infer<typeof retrievalHit>;
export const retrievalResult = z.object({
  hits: z.array(retrievalHit),
  /** Whether vector similarity took part (an embedding model and stored vectors). */
  vectorUsed: z.boolean(),
  /** Whether a rerank model ordered the hits (false when rerank was off, or its model missing or failing: fused order). */
  reranked: z.boolean(),
});

/** An agent's retrieval settings for its bound knowledge bases (studio). */
export const agentKnowledgeSettings = z.object({
  topK: z.number().int().min(1).max(20),
  vectorWeight: z.number().min(0).max(1),
  threshold: z.number().min(0).max(1),
  /** Answer with the best Q&A pair or segment above `directThreshold`, with no model at all. */
  directAnswer: z.boolean(),
  directThreshold: z.number().min(0).max(1),
  /** Rerank the fused hits with a RERANK model of Model management (null: the default one). */
  rerank: z.boolean().optional(),
  rerankModelId: id.nullable().optional(),
});
export type AgentKnowledgeSettings = z.infer<typeof agentKnowledgeSettings>;
export const defaultKnowledgeSettings = (): AgentKnowledgeSettings => ({
  topK: 5,
  vectorWeight: 0.7,
  threshold: 0.2,
  directAnswer: false,
  directThreshold: 0.6,
  rerank: false,
  rerankModelId: null,
});
