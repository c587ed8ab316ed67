import {
  CARD_SAMPLE_MAX_BYTES,
  CARD_TEMPLATES_MAX,
  type CardBinding,
  type CardTemplate,
  type CardTemplateConfig,
  type cardTemplateInput,
  type WidgetData,
  valueAt,
} from "@agentfair/contracts";
import type { z } from "zod";
import type { Caller } from "../../platform/auth.ts";
import { badRequest, notFound } from "../../platform/errors.ts";
import { insertWithinLimit } from "../../platform/count-limit.ts";
import type { Platform } from "../../platform/platform.ts";
import type { RuntimeTool, ToolContext, ToolDecorator } from "../../runtime/tool-registry.ts";
import type { ToolsService } from "../tools/tools.service.ts";
import { type CardRow, CardsRepository } from "./cards.repository.ts";

type Input = z.output<typeof cardTemplateInput>;

/** A card's data larger than this is left out of the reply (the tool result still reaches the model). */
const WIDGET_DATA_MAX_BYTES = 64 * 1024;

const sizeOf = (v: unknown) => (v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v) ?? ""));

/** A card as the reply carries it: the template and the tool result at its data path. */
export function widgetOf(config: CardTemplateConfig, result: unknown): WidgetData {
  let parsed = result;
  if (typeof result === "string") {
    try {
      parsed = JSON.parse(result);
    } catch {
      // a text result: a card reads it only with an empty data path
    }
  }
  return { config: { kind: "card", ...config }, data: valueAt(parsed, config.dataPath) };
}

/** Card templates per owner and tenant, their binding to plugins, and the cards a bound tool's result becomes. */
export class CardsService {
  readonly repo: CardsRepository;

  constructor(
    private readonly platform: Platform,
    private readonly tools: () => ToolsService | undefined,
  ) {
    this.repo = new CardsRepository(platform.db);
  }

  // ---- access --------------------------------------------------------------------------------

  /** The one owner and tenant check: another user's card is not found (administrators may read and edit any). */
  private async own(caller: Caller, id: string) {
    const row = await this.repo.byId(id);
    if (!row || (!caller.isAdmin && (row.ownerId !== caller.userId || row.tenantId !== caller.tenantId))) throw notFound();
    return row;
  }

  /** A plugin the caller may bind a card to: their own (administrators: any), never a built-in one. */
  private async bindablePlugin(caller: Caller, pluginId: string) {
    const tools = this.tools();
    if (!tools) throw notFound();
    const plugin = await tools.get(caller, pluginId);
    if (plugin.standard) throw notFound();
    return plugin;
  }

  private toWire(row: CardRow, pluginIds: string[]): CardTemplate {
    return {
      id: row.id,
      name: row.name,
      group: row.group,
      config: row.config,
      sample: row.sample ?? undefined,
      pluginIds,
      createdTime: row.createdAt.toISOString(),
      updatedTime: row.updatedAt.toISOString(),
    };
  }

  /** §5 card rules: a name; at least one component (the card type); a list needs a list in the sample at the data path. */
  private validate(input: Input): CardTemplateConfig {
    if (!input.name) throw badRequest("cardNameRequired");
    const type = input.config.type;
    if (!type) throw badRequest("cardComponentRequired");
    if (sizeOf(input.sample) > CARD_SAMPLE_MAX_BYTES) throw badRequest("cardSampleTooLarge", { size: "64KB" });
    if (input.config.list && input.sample !== undefined && !Array.isArray(widgetOf({ ...input.config, type }, input.sample).data))
      throw badRequest("cardListNeedsList");
    return { ...input.config, type };
  }

  // ---- templates -----------------------------------------------------------------------------

  async list(caller: Caller): Promise<CardTemplate[]> {
    const rows = await this.repo.listOf(caller.userId, caller.tenantId, CARD_TEMPLATES_MAX);
    const plugins = await this.repo.pluginsOf(rows.map((r) => r.id));
    return rows.map((r) => this.toWire(r, plugins.get(r.id) ?? []));
  }

  async get(caller: Caller, id: string) {
    const row = await this.own(caller, id);
    return this.toWire(row, (await this.repo.pluginsOf([id])).get(id) ?? []);
  }

  async create(caller: Caller, input: Input) {
    const config = this.validate(input);
    const row = await insertWithinLimit(this.platform.db, `card-templates:${caller.userId}`, CARD_TEMPLATES_MAX, {
      count: (tx) => this.repo.countOf(caller.userId, tx),
      refuse: (max) => badRequest("cardTooMany", { max }),
      insert: (tx) =>
        this.repo.insert(
          { tenantId: caller.tenantId, ownerId: caller.userId, name: input.name, group: input.group, config, sample: input.sample ?? null },
          tx,
        ),
    });
    return this.toWire(row, []);
  }

  async update(caller: Caller, id: string, input: Input) {
    await this.own(caller, id);
    const config = this.validate(input);
    const row = await this.repo.update(id, { name: input.name, group: input.group, config, sample: input.sample ?? null });
    return this.toWire(row, (await this.repo.pluginsOf([id])).get(id) ?? []);
  }

  async remove(caller: Caller, id: string) {
    await this.own(caller, id);
    await this.repo.remove(id);
  }

  // ---- binding to plugins --------------------------------------------------------------------

  async binding(caller: Caller, pluginId: string): Promise<CardBinding> {
    await this.bindablePlugin(caller, pluginId);
    return { pluginId, cardId: (await this.repo.bindingOf(pluginId))?.cardId ?? null };
  }

  /** Binds one of the caller's cards to a plugin they own (null unbinds). */
  async bind(caller: Caller, pluginId: string, cardId: string | null): Promise<CardBinding> {
    await this.bindablePlugin(caller, pluginId);
    if (cardId === null) {
      await this.repo.unbind(pluginId);
      return { pluginId, cardId: null };
    }
    const card = await this.own(caller, cardId);
    if (card.ownerId !== caller.userId) throw notFound();
    await this.repo.bind(pluginId, cardId);
    return { pluginId, cardId };
  }

  // ---- the runtime ---------------------------------------------------------------------------

  /**
   * The tool decorator: a plugin bound to a card (of the plugin owner's tenant) reports its result
   * as the reply's `widget_data` too, so the chat shows the card inside the reply.
   */
  decorator(): ToolDecorator {
    return {
      decorate: async (tools: RuntimeTool[], ctx: ToolContext) => {
        const bound = await this.repo.cardsOfPlugins(tools.flatMap((t) => (t.pluginId ? [t.pluginId] : [])));
        const cards = new Map(bound.filter((b) => b.card.tenantId === ctx.agent.tenantId).map((b) => [b.pluginId, b.card.config]));
        if (!cards.size) return tools;
        return tools.map((tool) => {
          const config = tool.pluginId ? cards.get(tool.pluginId) : undefined;
          if (!config) return tool;
          return {
            ...tool,
            execute: async (args, run) => {
              const result = await tool.execute(args, run);
              const widgetData = widgetOf(config, result);
              if (sizeOf(widgetData) <= WIDGET_DATA_MAX_BYTES) run.emit?.({ type: "widget_data", widgetData });
              else this.platform.log.info({ pluginId: tool.pluginId }, "card data too large for the reply");
              return result;
            },
          };
        });
      },
    };
  }
}
