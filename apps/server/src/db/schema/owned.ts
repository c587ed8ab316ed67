import { text } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";
import { users } from "./users.ts";

/**
 * The tenant and owner columns of a row a user owns (spread into a table's columns). A separate file
 * from columns.ts because tenants.ts and users.ts build on columns.ts.
 * `ownerOnDelete: "cascade"`: the row goes with its owner (drafts and proposals nobody else reads).
 */
export const ownedColumns = (opts: { ownerOnDelete?: "cascade" } = {}) => ({
  tenantId: text("tenant_id")
    .notNull()
    .references(() => tenants.id),
  ownerId: text("owner_id")
    .notNull()
    .references(() => users.id, opts.ownerOnDelete ? { onDelete: opts.ownerOnDelete } : {}),
});
