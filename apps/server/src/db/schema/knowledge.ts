import { type SQL, sql } from "drizzle-orm";
import { bigint, boolean, customType, index, integer, jsonb, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";
import { users } from "./users.ts";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** Knowledge bases (doc 2 §3): owned by one user of one tenant. */
export const knowledgeBases = pgTable(
  "knowledge_bases",
  {
    id: id(),
    tenantId: text("tenant_id").notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    visibility: text("visibility").notNull().default("private"),
    uri: text("uri").notNull().default(""),
    /** The EMBEDDING model of Model management; null takes the tenant's (else the platform's) default. */
    embeddingModelId: text("embedding_model_id"),
    createdAt: createdAt(),
    /** Null until the first edit: the list shows the updated time, else the created time. */
    updatedAt: timestamp("updated_at", { withTimezone: true }),
  },
  (t) => [index("knowledge_bases_owner").on(t.ownerId, t.createdAt), index("knowledge_bases_tenant").on(t.tenantId, t.createdAt)],
);

export const knowledgeFolders = pgTable(
  "knowledge_folders",
  {
    id: id(),
    baseId: text("base_id")
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique("knowledge_folders_name").on(t.baseId, t.name)],
);

/** A document of a base; its bytes are a row of `files` (kind "knowledge") in the FileStore. */
export const knowledgeFiles = pgTable(
  "knowledge_files",
  {
    id: id(),
    baseId: text("base_id")
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: "cascade" }),
    folderId: text("folder_id").references(() => knowledgeFolders.id, { onDelete: "set null" }),
    storedFileId: text("stored_file_id").notNull(),
    name: text("name").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    /** QUEUING, UPLOADED, VECTORIZING, VECTORIZED, DONE, FAILED */
    state: text("state").notNull().default("QUEUING"),
    progress: integer("progress").notNull().default(0),
    /** A catalogue message key and its parameters, translated when read. */
    error: jsonb("error").$type<{ key: string; params?: Record<string, string | number> }>(),
    /** The segment options of the last commit (null before the first). */
    options: jsonb("options").$type<Record<string, unknown>>(),
    /** Bumped by each commit: segment ids and the job are keyed by it. */
    parseNo: integer("parse_no").notNull().default(0),
    committed: boolean("committed").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("knowledge_files_base").on(t.baseId, t.createdAt)],
);

/**
 * Segments: from a file (keyed by file, parse, ingest version and position: the id is derived
 * from them, so a rerun job writes nothing twice) or added by hand (Q&A pairs, manual segments).
 * `head_terms` (title, question) and `body_terms` are the jieba-segmented words the keyword index reads.
 */
export const knowledgeSegments = pgTable(
  "knowledge_segments",
  {
    id: text("id").primaryKey(),
    baseId: text("base_id")
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: "cascade" }),
    fileId: text("file_id").references(() => knowledgeFiles.id, { onDelete: "cascade" }),
    parseNo: integer("parse_no").notNull().default(0),
    ingestVersion: integer("ingest_version").notNull().default(0),
    position: integer("position").notNull(),
    content: text("content").notNull(),
    title: text("title"),
    question: text("question"),
    answer: text("answer"),
    tokens: integer("tokens").notNull().default(0),
    enabled: boolean("enabled").notNull().default(true),
    edited: boolean("edited").notNull().default(false),
    headTerms: text("head_terms").notNull().default(""),
    bodyTerms: text("body_terms").notNull().default(""),
    tsv: tsvector("tsv").generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('simple'::regconfig, head_terms), 'A') || setweight(to_tsvector('simple'::regconfig, body_terms), 'B')`,
    ),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("knowledge_segments_file").on(t.fileId, t.position),
    index("knowledge_segments_base").on(t.baseId, t.position),
    // fastupdate off: PGlite has no autovacuum to merge a pending list, which searches scan linearly.
    index("knowledge_segments_tsv").using("gin", t.tsv).with({ fastupdate: false }),
    // The titles and questions alone: a search takes its single-word candidates with the word in the head from here,
    // without reading the segments that hold it only in the body (search.ts).
    index("knowledge_segments_head").using("gin", sql`to_tsvector('simple'::regconfig, ${t.headTerms})`).with({ fastupdate: false }),
  ],
);
