import { bigint, boolean, index, integer, pgTable, text, timestamp, unique } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns.ts";
import { tenants } from "./tenants.ts";

export const users = pgTable(
  "users",
  {
    id: id(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    username: text("username").notNull(),
    nickname: text("nickname").notNull().default(""),
    email: text("email"),
    phone: text("phone"),
    passwordHash: text("password_hash").notNull(),
    isWhite: boolean("is_white").notNull().default(false),
    memberLevel: text("member_level").notNull().default("FREE"),
    memberEndAt: timestamp("member_end_at", { withTimezone: true }),
    /** Integer cents; changed only by the billing service, in a transaction with a ledger row. */
    balanceCents: bigint("balance_cents", { mode: "number" }).notNull().default(0),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
    loginCount: integer("login_count").notNull().default(0),
    /** 'answered' or 'skipped': the usage-intent survey is over. Until then every sign-in shows it. */
    surveyOutcome: text("survey_outcome"),
    /** 'member' or 'admin': a tenant administrator manages its tenant's models. Never on the default tenant. */
    tenantRole: text("tenant_role").notNull().default("member"),
    /** Set by the tenant's administrator: the account cannot sign in, and its sessions, keys and tasks stop. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique("users_tenant_username").on(t.tenantId, t.username),
    unique("users_tenant_email").on(t.tenantId, t.email),
    unique("users_tenant_phone").on(t.tenantId, t.phone),
    // A sign-in at another tenant's page looks for the account by username in every tenant.
    index("users_username").on(t.username),
  ],
);

/** Enterprise groups a user belongs to (doc 1 §3 "groups"). */
export const userGroups = pgTable("user_groups", {
  id: id(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  groupName: text("group_name").notNull(),
  createdAt: createdAt(),
});
