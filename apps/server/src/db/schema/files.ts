import { bigint, index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";

/** Uploaded files; the bytes live in the FileStore under storageKey. */
export const files = pgTable(
  "files",
  {
    id: id(),
    tenantId: text("tenant_id").notNull(),
    ownerId: text("owner_id").notNull(),
    /** "icon" (agent and tool icons), "chat" (chat uploads) or "knowledge" (knowledge base documents). */
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    storageKey: text("storage_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("files_owner_kind").on(t.ownerId, t.kind, t.createdAt)],
);
