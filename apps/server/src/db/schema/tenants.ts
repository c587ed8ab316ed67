import { boolean, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";

export const tenants = pgTable("tenants", {
  id: id(),
  domain: text("domain").notNull().unique(),
  name: text("name").notNull(),
  logo: text("logo").notNull().default(""),
  primaryColor: text("primary_color").notNull().default("#1677ff"),
  backgroundColor: text("background_color").notNull().default("#f0f5ff"),
  recordFiling: text("record_filing").notNull().default(""),
  /** The platform's own tenant: its users have no tenantId on the wire. */
  isDefault: boolean("is_default").notNull().default(false),
  /**
   * Whether people may create their own accounts in this tenant (register, or a code login of a new
   * contact). Off unless a platform administrator opens it: a tenant's users pass the membership gate.
   * The default tenant (the public platform) is always open.
   */
  openRegistration: boolean("open_registration").notNull().default(false),
  createdAt: createdAt(),
});
