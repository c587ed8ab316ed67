import type { Caller } from "../../platform/auth.ts";
import { badRequest } from "../../platform/errors.ts";
import { pluginInput } from "@agentfair/contracts";
import { slugCallableName, uniqueCallableName } from "./callable-name.ts";
import type { PluginRow } from "./tools.repository.ts";
import type { ToolsService } from "./tools.service.ts";

/** The plugin-row fields a workflow owns (its create modal's fields under their plugin names). */
export interface WorkflowIdentity {
  pluginName: string;
  pluginDescription: string;
  pluginIcon: string;
  pluginIconBackground: string;
  pluginCallableName: string;
  pluginTags: string[];
}

const EMPTY_DEFINITION = (() => {
  const d = pluginInput.parse({});
  return {
    parameters: d.parameters,
    headers: d.headers,
    body: d.body,
    pathVariables: d.pathVariables,
    url: "",
    method: d.method,
    contentType: d.contentType,
    rawBody: "",
    code: "",
    netEnabled: false,
    netAllowHosts: [],
    auth: d.auth,
    mcp: null,
  };
})();

const taken = (err: unknown): never => {
  const codes = [(err as { code?: string })?.code, (err as { cause?: { code?: string } })?.cause?.code];
  if (codes.includes("23505")) throw badRequest("callableNameTaken");
  throw err;
};

/**
 * What the workflows module asks of tools: a workflow is a plugin row of pluginType WORKFLOW, so the
 * tools list (type 2), deletion and agent bindings treat it as any tool. Callable names share the
 * owner's one namespace.
 */
export function workflowPlugins(tools: ToolsService) {
  return {
    row: async (id: string): Promise<PluginRow | undefined> => (await tools.repo.byId(id))?.plugin,
    rowWithCreator: (id: string) => tools.repo.byId(id),
    rows: (ids: string[]) => tools.repo.byIds(ids),
    async create(caller: Caller, identity: WorkflowIdentity) {
      if (await tools.repo.callableNameTaken(caller.userId, identity.pluginCallableName)) throw badRequest("callableNameTaken");
      return tools.repo
        .insert({ tenantId: caller.tenantId, ownerId: caller.userId, ...identity, pluginType: "WORKFLOW", definition: EMPTY_DEFINITION })
        .catch(taken);
    },
    async update(row: PluginRow, values: Partial<WorkflowIdentity> & { pluginStatus?: string }) {
      if (values.pluginCallableName && (await tools.repo.callableNameTaken(row.ownerId, values.pluginCallableName, row.id)))
        throw badRequest("callableNameTaken");
      return tools.repo.update(row.id, { ...values, lastModifiedAt: new Date() }).catch(taken);
    },
    remove: (id: string) => tools.repo.remove(id),
    pageOfOwner: (caller: Caller, name: string | undefined, pageNumber: number, pageSize: number) =>
      tools.repo.page({ ownerId: caller.userId, withStandard: false, name: name || undefined, types: ["WORKFLOW"] }, pageNumber, pageSize),
    async suggestCallableName(ownerId: string, text: string) {
      return uniqueCallableName(slugCallableName(text), (n) => tools.repo.callableNameTaken(ownerId, n));
    },
    /** A tool node: the owner's own plugin or MCP tool (or a standard one), run with the owner's credentials. */
    async runAsOwner(owner: { ownerId: string; tenantId: string }, pluginId: string, args: Record<string, unknown>, signal: AbortSignal) {
      const row = (await tools.repo.byId(pluginId))?.plugin;
      const mine = row && ((row.ownerId === owner.ownerId && row.tenantId === owner.tenantId) || row.standard);
      if (!row || !mine || row.pluginType === "WORKFLOW") throw new Error("the tool does not exist");
      const r = await tools.execute(row, args, signal);
      if (!r.ok) throw new Error(r.error ?? "the tool call failed");
      return r.result;
    },
  };
}
export type WorkflowPlugins = ReturnType<typeof workflowPlugins>;
