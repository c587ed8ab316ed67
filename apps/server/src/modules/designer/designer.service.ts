import { type Design, type DesignInput, type DesignPage, type DesignSummary, measureWidgets, type WidgetData } from "@agentfair/contracts";
import type { Db } from "../../db/client.ts";
import type { Caller } from "../../platform/auth.ts";
import { notFound } from "../../platform/errors.ts";
import type { RuntimeTool, ToolContext, ToolDecorator } from "../../runtime/tool-registry.ts";
import type { ToolsService } from "../tools/tools.service.ts";
import { DesignerRepository, type DesignRow } from "./designer.repository.ts";

const summary = (row: DesignRow): DesignSummary => ({
  id: row.id,
  name: row.name,
  widgetCount: measureWidgets(row.widgetList).count,
  createdTime: row.createdAt.toISOString(),
  updatedTime: row.updatedAt.toISOString(),
});

const full = (row: DesignRow, pluginIds: string[]): Design => ({
  ...summary(row),
  widgetList: row.widgetList,
  sampleResult: row.sampleResult,
  pluginIds,
});

/** The largest design plus result a reply carries (larger ones are left out of it). */
const WIDGET_DATA_MAX_BYTES = 256 * 1024;

const parsed = (text: string | undefined): unknown => {
  if (!text?.trim()) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The result data an agent's design reads from its reply (useVar paths): the JSON the reply's text
 * holds (all of it, a ```json block, or from its first `{` to its last `}`), else the last tool
 * result that is JSON, else `{ content }` with the reply's text.
 */
export function replyResult(content: string, toolResults: (string | undefined)[]): unknown {
  const fenced = content.match(/```(?:json)?\s*\n([\s\S]*?)```/)?.[1];
  const braces = content.includes("{") ? content.slice(content.indexOf("{"), content.lastIndexOf("}") + 1) : undefined;
  return (
    parsed(content) ??
    parsed(fenced) ??
    parsed(braces) ??
    toolResults.reduceRight<unknown>((found, r) => found ?? parsed(r), undefined) ?? { content }
  );
}

/** Designs belong to their owner alone (in the owner's tenant); nobody else sees them, administrators neither. */
export class DesignerService {
  readonly repo: DesignerRepository;

  constructor(
    db: Db,
    private readonly tools: () => ToolsService | undefined = () => undefined,
  ) {
    this.repo = new DesignerRepository(db);
  }

  /** The one owner and tenant check: another user's design, or one of another tenant, is not found. */
  private async owned(caller: Caller, id: string) {
    return this.ownedBy({ ownerId: caller.userId, tenantId: caller.tenantId }, id);
  }

  private async ownedBy(owner: { ownerId: string; tenantId: string }, id: string) {
    const row = await this.repo.byId(id);
    if (!row || row.ownerId !== owner.ownerId || row.tenantId !== owner.tenantId) throw notFound();
    return row;
  }

  /** Agents: a draft may show only the caller's own design. */
  async requireOwn(caller: Caller, id: string) {
    await this.owned(caller, id);
  }

  /**
   * The chat: an agent's design shown in its reply, fed by the reply's result. Only a design of the
   * agent's owner in the agent's tenant (a copied agent or a deleted design shows none).
   */
  async forReply(
    agent: { ownerId: string; tenantId: string; designId: string | null },
    reply: { content: string; toolResults: (string | undefined)[] },
  ): Promise<WidgetData | null> {
    if (!agent.designId) return null;
    const design = await this.ownedBy(agent, agent.designId).catch(() => null);
    if (!design) return null;
    const widgetData: WidgetData = {
      config: { kind: "design", designId: design.id, widgetList: design.widgetList },
      data: replyResult(reply.content, reply.toolResults),
    };
    return Buffer.byteLength(JSON.stringify(widgetData)) <= WIDGET_DATA_MAX_BYTES ? widgetData : null;
  }

  async page(caller: Caller, q: { name?: string; page: number; limit: number }): Promise<DesignPage> {
    const { list, total } = await this.repo.page({ ownerId: caller.userId, tenantId: caller.tenantId }, q.name?.trim(), q.page, q.limit);
    return { list: list.map(summary), total };
  }

  async get(caller: Caller, id: string): Promise<Design> {
    return full(await this.owned(caller, id), await this.repo.pluginIdsOf(id));
  }

  async create(caller: Caller, input: DesignInput): Promise<Design> {
    const row = await this.repo.insert({
      tenantId: caller.tenantId,
      ownerId: caller.userId,
      name: input.name,
      widgetList: input.widgetList,
      sampleResult: input.sampleResult,
    });
    return full(row, []);
  }

  async update(caller: Caller, id: string, input: DesignInput): Promise<Design> {
    await this.owned(caller, id);
    const row = await this.repo.update(id, { name: input.name, widgetList: input.widgetList, sampleResult: input.sampleResult });
    return full(row, await this.repo.pluginIdsOf(id));
  }

  /** Binds the caller's own tools (never built-in ones) to the design: their results show it in replies. */
  async bind(caller: Caller, id: string, pluginIds: string[]): Promise<Design> {
    const row = await this.owned(caller, id);
    const unique = [...new Set(pluginIds)];
    const tools = this.tools();
    for (const pluginId of unique) {
      const plugin = tools ? await tools.get(caller, pluginId) : null;
      if (!plugin || plugin.standard || !plugin.editable) throw notFound();
    }
    await this.repo.setBindings(id, unique);
    return full(row, unique);
  }

  /** The tool decorator: a plugin bound to a design of the agent's tenant reports its result as the reply's widget_data. */
  decorator(): ToolDecorator {
    return {
      decorate: async (tools: RuntimeTool[], ctx: ToolContext) => {
        const bound = await this.repo.designsOfPlugins(tools.flatMap((t) => (t.pluginId ? [t.pluginId] : [])));
        const byPlugin = new Map(bound.filter((b) => b.design.tenantId === ctx.agent.tenantId).map((b) => [b.pluginId, b.design]));
        if (!byPlugin.size) return tools;
        return tools.map((tool) => {
          const design = tool.pluginId ? byPlugin.get(tool.pluginId) : undefined;
          if (!design) return tool;
          return {
            ...tool,
            execute: async (args, run) => {
              const result = await tool.execute(args, run);
              const widgetData: WidgetData = {
                config: { kind: "design", designId: design.id, widgetList: design.widgetList },
                data: result,
              };
              if (Buffer.byteLength(JSON.stringify(widgetData)) <= WIDGET_DATA_MAX_BYTES) run.emit?.({ type: "widget_data", widgetData });
              return result;
            },
          };
        });
      },
    };
  }

  async remove(caller: Caller, id: string) {
    await this.owned(caller, id);
    await this.repo.remove(id);
  }
}
