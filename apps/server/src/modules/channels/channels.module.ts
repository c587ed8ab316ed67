import type { FastifyPluginAsync } from "fastify";
import { PREFIXES } from "../../platform/http.ts";
import type { Platform } from "../../platform/platform.ts";
import type { AgentsForRuntime } from "../agents/runtime-agent.ts";
import type { ChatModule } from "../chat/chat.module.ts";
import { channelsRoutes, mcpRoutes } from "./channels.routes.ts";
import { ChannelsService } from "./channels.service.ts";
import { SseHub } from "./sse-hub.ts";

/** MCP sessions nobody has used for this long are deleted. */
const SESSION_IDLE_MS = 24 * 3600_000;

/** Agents as MCP servers: key management under /aiagent_api, the MCP endpoints under /mcp. */
export function createChannelsModule(platform: Platform, deps: { agents: AgentsForRuntime; chat: ChatModule }) {
  const channels = new ChannelsService(platform, deps);
  const hub = new SseHub(platform, channels.repo);
  platform.jobs.schedule("channels.purge-mcp-sessions", "17 * * * *", () =>
    channels.repo.purgeSessions(new Date(Date.now() - SESSION_IDLE_MS)),
  );
  const plugin: FastifyPluginAsync = async (app) => {
    app.addHook("onClose", async () => hub.close());
    await app.register(channelsRoutes, { prefix: PREFIXES.builder, channels });
    await app.register(mcpRoutes, { channels, hub });
  };
  return { channels, plugin };
}
