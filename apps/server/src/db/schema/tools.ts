import type { ParameterRow, PluginAuth } from "@agentfair/contracts";
import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns.ts";
import { ownedColumns } from "./owned.ts";

/** What a plugin does when called: every field that a successful test vouches for. */
export interface PluginDefinition {
  parameters: ParameterRow[];
  headers: ParameterRow[];
  body: ParameterRow[];
  pathVariables: ParameterRow[];
  url: string;
  method: string;
  contentType: string;
  rawBody: string;
  code: string;
  netEnabled: boolean;
  netAllowHosts: string[];
  auth: PluginAuth;
  mcp: { serverUrl: string; toolName: string; inputSchema?: Record<string, unknown> } | null;
  /** Standard tools only: the host-side tool that runs instead (e.g. "web_fetch"). */
  builtin?: string;
}

/** Tools (doc 2 §3): HTTP, JavaScript, Python and MCP plugins (workflows come with their own issue). */
export const plugins = pgTable(
  "plugins",
  {
    id: id(),
    ...ownedColumns(),
    pluginName: text("plugin_name").notNull(),
    pluginDescription: text("plugin_description").notNull().default(""),
    pluginIcon: text("plugin_icon").notNull().default("1"),
    pluginIconBackground: text("plugin_icon_background").notNull().default("#e8f3ff"),
    pluginType: text("plugin_type").notNull(),
    pluginStatus: text("plugin_status").notNull().default("C00_Unreleased"),
    pluginCallableName: text("plugin_callable_name").notNull(),
    pluginTags: jsonb("plugin_tags").$type<string[]>().notNull().default([]),
    pluginKind: text("plugin_kind").notNull().default("BACKEND"),
    /** Built-in tools: never edited through the API. */
    standard: boolean("standard").notNull().default(false),
    definition: jsonb("definition").$type<PluginDefinition>().notNull(),
    /** API key or bearer token, AES-256-GCM under the platform secret; never returned. */
    authSecretEnc: text("auth_secret_enc"),
    /** Hash of the definition that last passed a test run: what unlocks publishing. */
    testedHash: text("tested_hash"),
    createdAt: createdAt(),
    lastModifiedAt: timestamp("last_modified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("plugins_owner").on(t.ownerId, t.lastModifiedAt),
    index("plugins_tenant").on(t.tenantId),
    uniqueIndex("plugins_owner_callable").on(t.ownerId, sql`lower(${t.pluginCallableName})`),
  ],
);
