import type { FastifyPluginAsync } from "fastify";
import { PREFIXES } from "../../platform/http.ts";
import type { Platform } from "../../platform/platform.ts";
import { builtinTools } from "../../runtime/builtin-tools.ts";
import { ToolRegistry } from "../../runtime/tool-registry.ts";
import type { AgentsForRuntime } from "../agents/runtime-agent.ts";
import type { Billing } from "../billing/billing.seam.ts";
import { modelsRoutes } from "../models/models.routes.ts";
import { ModelsService } from "../models/models.service.ts";
import { chatRoutes } from "./chat.routes.ts";
import { type AttachmentSource, ChatService } from "./chat.service.ts";

/**
 * Chat runtime and Model management, built once in app.ts. Other modules register their tool
 * kinds in `tools` (plugins, workflows, knowledge, rules).
 */
export async function createChatModule(
  platform: Platform,
  deps: { agents: () => AgentsForRuntime | undefined; billing: () => Billing | undefined; attachments?: () => AttachmentSource | undefined },
) {
  const models = new ModelsService(platform);
  await models.seedFromEnv();
  const tools = new ToolRegistry();
  tools.register(builtinTools);
  const chat = new ChatService(platform, { ...deps, attachments: deps.attachments ?? (() => undefined), models, tools });
  const plugin: FastifyPluginAsync = async (app) => {
    await app.register(modelsRoutes, { prefix: PREFIXES.agent, models });
    await app.register(chatRoutes, { prefix: PREFIXES.runtime, chat, models });
  };
  return { chat, models, tools, plugin };
}
export type ChatModule = Awaited<ReturnType<typeof createChatModule>>;
