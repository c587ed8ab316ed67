import type { ChatEvent } from "@agentfair/contracts";
import type { RuntimeAgent } from "../modules/agents/runtime-agent.ts";
import type { Caller } from "../platform/auth.ts";

/** A tool the model may call, whatever its kind (built-in, plugin, workflow, knowledge, rule). */
export interface RuntimeTool {
  /** The callable name the model sees (letters, digits, underscore). */
  name: string;
  /** Shown to people as the tool call's metaInfo name. */
  displayName: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** `emit` lets a tool add events to the reply (e.g. the retrieved `docs`). */
  execute(args: unknown, ctx: { signal: AbortSignal; emit?: (event: ChatEvent) => void }): Promise<unknown>;
}

export interface ToolContext {
  caller: Caller;
  agent: RuntimeAgent;
  sessionId: string;
}

/** One kind of tools (e.g. 'builtin', 'plugin', 'workflow', 'knowledge', 'rule'): it turns an agent's bindings into tools. */
export interface ToolKind {
  kind: string;
  toolsFor(ctx: ToolContext): Promise<RuntimeTool[]>;
}

/** The one tool registry: other modules register their kinds; the runtime asks it for an agent's tools. */
export class ToolRegistry {
  private readonly kinds = new Map<string, ToolKind>();

  register(kind: ToolKind) {
    this.kinds.set(kind.kind, kind);
  }

  kindsRegistered() {
    return [...this.kinds.keys()];
  }

  async toolsFor(ctx: ToolContext): Promise<Map<string, RuntimeTool>> {
    const out = new Map<string, RuntimeTool>();
    for (const kind of this.kinds.values()) {
      for (const tool of await kind.toolsFor(ctx)) if (!out.has(tool.name)) out.set(tool.name, tool);
    }
    return out;
  }
}
