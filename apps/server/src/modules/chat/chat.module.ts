import type { FastifyPluginAsync } from "fastify";
import { PREFIXES } from "../../platform/http.ts";
import type { Platform } from "../../platform/platform.ts";
import { builtinTools } from "../../runtime/builtin-tools.ts";
import { ToolRegistry } from "../../runtime/tool-registry.ts";
import type { AgentsForRuntime } from "../agents/runtime-agent.ts";
import type { Billing } from "../billing/billing.seam.ts";
import { chatAttachments, chatUploadRoutes } from "../files/chat-upload.ts";
import type { FilesService } from "../files/files.service.ts";
import type { KnowledgeForRuntime } from "../knowledge/knowledge.runtime.ts";
import { modelsRoutes } from "../models/models.routes.ts";
import { ModelsService } from "../models/models.service.ts";
import { chatRoutes } from "./chat.routes.ts";
import { type AgentsForConversations, ConversationsService, type KnowledgeForTuning } from "./conversations.ts";
import { conversationsRoutes, feedbackRoutes } from "./conversations.routes.ts";
import { type AttachmentSource, type ChatOrchestrator, ChatService, type InsightForChat, type ReplyWidgets } from "./chat.service.ts";

/**
 * Chat runtime and Model management, built once in app.ts. Other modules register their tool
 * kinds in `tools` (plugins, workflows, knowledge, rules).
 */
export async function createChatModule(
  platform: Platform,
  deps: {
    agents: () => AgentsForRuntime | undefined;
    billing: () => Billing | undefined;
    files?: () => FilesService | undefined;
    knowledge?: () => KnowledgeForRuntime | undefined;
    insight?: () => InsightForChat | undefined;
    orchestrator?: () => ChatOrchestrator | undefined;
    replyWidgets?: () => ReplyWidgets | undefined;
    /** Conversation details: the agents' owner check and the knowledge bases tuning records go to. */
    owners?: () => AgentsForConversations | undefined;
    qa?: () => KnowledgeForTuning | undefined;
  },
) {
  const models = new ModelsService(platform);
  await models.seedFromEnv();
  const tools = new ToolRegistry();
  tools.register(builtinTools);
  let attachments: AttachmentSource | undefined;
  const chat = new ChatService(platform, {
    agents: deps.agents,
    billing: deps.billing,
    attachments: () => {
      const files = deps.files?.();
      attachments ??= files && chatAttachments(files);
      return attachments;
    },
    models,
    tools,
    knowledge: deps.knowledge,
    insight: deps.insight,
    orchestrator: deps.orchestrator,
    replyWidgets: deps.replyWidgets,
  });
  const conversations = new ConversationsService(platform, { agents: () => deps.owners?.(), knowledge: () => deps.qa?.() });
  const plugin: FastifyPluginAsync = async (app) => {
    await app.register(modelsRoutes, { prefix: PREFIXES.agent, models });
    await app.register(chatRoutes, { prefix: PREFIXES.runtime, chat, models });
    await app.register(feedbackRoutes, { prefix: PREFIXES.runtime, conversations });
    await app.register(conversationsRoutes, { prefix: PREFIXES.builder, conversations });
    const files = deps.files?.();
    if (files) await app.register(chatUploadRoutes, { prefix: PREFIXES.agent, files });
  };
  return { chat, models, tools, conversations, plugin };
}
export type ChatModule = Awaited<ReturnType<typeof createChatModule>>;
