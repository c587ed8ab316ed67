import { z } from "zod";

/**
 * Agents as MCP servers (issue 16; doc 2 §1 "an agent exposed as an SSE MCP server"). Paths are
 * ours (the spec leaves them out): keys under /aiagent_api/agent/{id}/mcp-keys, the MCP endpoints
 * at /mcp/{agentId} (streamable HTTP) and /mcp/{agentId}/sse (SSE).
 */
export const MCP_KEY_NAME_MAX = 50;
/** Keys per agent, so a loop cannot fill the table. */
export const MCP_KEYS_PER_AGENT = 20;
/** §9 rate limits per minute; 0 disables the limit. */
export const MCP_LIMIT_MAX = 1_000_000_000;
/** Every key starts with this, so a leaked one is recognisable (secret scanners). */
export const MCP_KEY_PREFIX = "afk_";
/** The MCP tools an agent exposes. */
export const MCP_TOOL_ASK = "ask";
export const MCP_TOOL_SEARCH = "search_knowledge";

const limit = z.number().int().min(0).max(MCP_LIMIT_MAX);

export const mcpKeyLimits = z.object({
  requestsPerMinute: limit.default(0),
  inputTokensPerMinute: limit.default(0),
  outputTokensPerMinute: limit.default(0),
});

export const createMcpKeyRequest = mcpKeyLimits.extend({
  name: z.string().trim().min(1).max(MCP_KEY_NAME_MAX),
  searchKnowledge: z.boolean().default(false),
});
export type CreateMcpKeyRequest = z.input<typeof createMcpKeyRequest>;

export const updateMcpKeyRequest = mcpKeyLimits.partial().extend({
  name: z.string().trim().min(1).max(MCP_KEY_NAME_MAX).optional(),
  searchKnowledge: z.boolean().optional(),
});
export type UpdateMcpKeyRequest = z.input<typeof updateMcpKeyRequest>;

export const mcpKeyItem = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, for recognising it; the key itself is never shown again. */
  prefix: z.string(),
  searchKnowledge: z.boolean(),
  requestsPerMinute: z.number(),
  inputTokensPerMinute: z.number(),
  outputTokensPerMinute: z.number(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type McpKeyItem = z.infer<typeof mcpKeyItem>;

/** The answer to creating a key: `key` is shown this once. */
export const createdMcpKey = mcpKeyItem.extend({ key: z.string() });
export type CreatedMcpKey = z.infer<typeof createdMcpKey>;

export const mcpKeyList = z.object({
  list: z.array(mcpKeyItem),
  /** Paths of the agent's endpoints (the web adds its origin). */
  endpoints: z.object({ streamableHttp: z.string(), sse: z.string() }),
});
export type McpKeyList = z.infer<typeof mcpKeyList>;

export const mcpEndpointPaths = (agentId: string) => ({ streamableHttp: `/mcp/${agentId}`, sse: `/mcp/${agentId}/sse` });
