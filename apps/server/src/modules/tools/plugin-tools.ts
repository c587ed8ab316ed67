import type { ParameterRow } from "@agentfair/contracts";
import type { RuntimeTool, ToolKind } from "../../runtime/tool-registry.ts";
import type { PluginRow } from "./tools.repository.ts";
import type { ToolsService } from "./tools.service.ts";

/**
 * The 'plugin' tool kind: the plugins and MCP tools bound to an agent, offered to the model with
 * their parameter schemas. Only the agent owner's own plugins (and standard ones) count, whatever
 * ids a draft holds; a released agent runs only published plugins (a debug run of the draft may
 * run unpublished ones). Calls run with the owner's stored credentials: whoever chats never sees them.
 */
export function pluginToolKind(tools: ToolsService): ToolKind {
  return {
    kind: "plugin",
    async toolsFor({ agent }) {
      const ids = [...new Set([...agent.bindings.plugins, ...agent.bindings.externalPlugins])];
      if (!ids.length) return [];
      const rows = await tools.repo.byIds(ids);
      const debug = agent.versionId === null;
      return rows
        .filter((r) => (r.ownerId === agent.ownerId && r.tenantId === agent.tenantId) || r.standard)
        .filter((r) => r.pluginType === "MCP" || r.pluginStatus === "C90_Released" || debug)
        .filter((r) => r.pluginType !== "WORKFLOW")
        .map((row) => toolOf(tools, row));
    },
  };
}

function toolOf(tools: ToolsService, row: PluginRow): RuntimeTool {
  return {
    name: row.pluginCallableName,
    displayName: row.pluginName,
    plugin: row.pluginType === "MCP" ? { id: row.id, externalPluginName: row.pluginName } : { id: row.id, pluginName: row.pluginName },
    pluginId: row.id,
    // the name users call it by leads: "计算器：计算四则运算表达式…"
    description: `${row.pluginName}：${row.pluginDescription}`.slice(0, 1000),
    parameters: schemaOf(row),
    async execute(args, { signal }) {
      const r = await tools.execute(row, (args ?? {}) as Record<string, unknown>, signal);
      if (!r.ok) throw new Error(r.error ?? "the tool call failed");
      return r.result;
    },
  };
}

/** JSON schema of what the model fills in: every row without a fixed value. */
export function schemaOf(row: PluginRow): Record<string, unknown> {
  const d = row.definition;
  if (row.pluginType === "MCP") return d.mcp?.inputSchema ?? { type: "object", properties: {} };
  const rows: ParameterRow[] = [...d.pathVariables, ...d.parameters, ...d.headers, ...d.body].filter((r) => r.fixedValue === "");
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const r of rows) {
    properties[r.name] = {
      type: r.type === "number" ? "number" : "string",
      ...(r.description ? { description: r.description } : {}),
      ...(r.options.length ? { enum: r.type === "number" ? r.options.map(Number) : r.options } : {}),
    };
    if (r.required && !required.includes(r.name)) required.push(r.name);
  }
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}
