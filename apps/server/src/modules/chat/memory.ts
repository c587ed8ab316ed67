import { MEMORY_VALUE_MAX, type MemoryItem } from "@agentfair/contracts";
import type { Caller } from "../../platform/auth.ts";
import { badRequest } from "../../platform/errors.ts";
import type { Platform } from "../../platform/platform.ts";
import type { ToolKind } from "../../runtime/tool-registry.ts";
import type { RuntimeAgent } from "../agents/runtime-agent.ts";
import { MemoryRepository } from "./memory.repository.ts";

type Variable = RuntimeAgent["variables"][number];
const scopeOf = (v: Variable) => v.scope ?? "user";

/**
 * Memory variables (doc 2 dictionary: custom memory variable — name, default value, description):
 * each user has their own values of an agent's variables, user-wide or per session (the variable's
 * scope). The prompt reads them, the model writes them through `update_memory`, the user sees, edits
 * and resets them in the chat. Callers are checked by the chat service (agent access, own session).
 */
export class ChatMemory {
  private readonly repo: MemoryRepository;

  constructor(platform: Platform) {
    this.repo = new MemoryRepository(platform.db);
  }

  /** The caller's variables of the agent with their values (the default where none was written). */
  async list(userId: string, agent: RuntimeAgent, sessionId: string | null): Promise<MemoryItem[]> {
    const rows = await this.repo.values(agent.agentId, userId, sessionId);
    return agent.variables.map((v) => {
      const key = scopeOf(v) === "session" ? sessionId : "";
      const row = key === null ? undefined : rows.find((r) => r.name === v.name && r.sessionId === key);
      return {
        name: v.name,
        description: v.description,
        default: v.default,
        scope: scopeOf(v),
        value: row?.value ?? v.default,
        updatedAt: row?.updatedAt.toISOString() ?? null,
      };
    });
  }

  /** name → value for the prompt. */
  async values(userId: string, agent: RuntimeAgent, sessionId: string | null) {
    if (!agent.variables.length) return {};
    return Object.fromEntries((await this.list(userId, agent, sessionId)).map((m) => [m.name, m.value]));
  }

  private variable(agent: RuntimeAgent, name: string, sessionId: string | null) {
    const v = agent.variables.find((x) => x.name === name);
    if (!v) throw badRequest("memoryVariableUnknown", { name });
    if (scopeOf(v) === "session" && !sessionId) throw badRequest("memorySessionRequired");
    return { v, key: scopeOf(v) === "session" ? sessionId! : "" };
  }

  async set(userId: string, agent: RuntimeAgent, sessionId: string | null, name: string, value: string) {
    const { key } = this.variable(agent, name, sessionId);
    await this.repo.set({ agentId: agent.agentId, userId, sessionId: key, name, value: value.slice(0, MEMORY_VALUE_MAX) });
  }

  /** One variable, or all of them (a session's only with its session), back to the default. */
  async reset(userId: string, agent: RuntimeAgent, sessionId: string | null, name?: string) {
    const keys = name
      ? [{ sessionId: this.variable(agent, name, sessionId).key, name }]
      : agent.variables
          .filter((v) => scopeOf(v) === "user" || sessionId)
          .map((v) => ({ sessionId: scopeOf(v) === "session" ? sessionId! : "", name: v.name }));
    await this.repo.reset(agent.agentId, userId, keys);
  }

  forgetSession(userId: string, sessionId: string) {
    return this.repo.forgetSession(userId, sessionId);
  }

  /** The model's way to remember: `update_memory` for agents with memory variables, as the asker. */
  toolKind(): ToolKind {
    return {
      kind: "memory",
      toolsFor: async ({ caller, agent, sessionId }: { caller: Caller; agent: RuntimeAgent; sessionId: string }) => {
        if (!agent.variables.length) return [];
        const described = agent.variables.map((v) => `${v.name}${v.description ? `（${v.description}）` : ""}`).join("；");
        return [
          {
            name: "update_memory",
            displayName: "记忆",
            description: `Remembers a value of one of the memory variables for this user (${described}). Call it when the user tells you something a variable is for; the new value is used from the next question on.`,
            parameters: {
              type: "object",
              properties: {
                name: { type: "string", enum: agent.variables.map((v) => v.name), description: "the variable" },
                value: { type: "string", maxLength: MEMORY_VALUE_MAX, description: "its new value" },
              },
              required: ["name", "value"],
              additionalProperties: false,
            },
            execute: async (args) => {
              const a = (args ?? {}) as { name?: unknown; value?: unknown };
              const name = String(a.name ?? "");
              const value = String(a.value ?? "");
              try {
                await this.set(caller.userId, agent, sessionId || null, name, value);
              } catch {
                return { ok: false, error: `unknown variable ${name}` };
              }
              return { ok: true, name, value: value.slice(0, MEMORY_VALUE_MAX) };
            },
          },
        ];
      },
    };
  }
}
