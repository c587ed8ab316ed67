import type { ChatEvent, CheckPluginItem } from "@agentfair/contracts";
import type { RuntimeAgent } from "../modules/agents/runtime-agent.ts";
import type { Caller } from "../platform/auth.ts";

/** A tool the model may call, whatever its kind (built-in, plugin, workflow, knowledge, rule). */
export interface RuntimeTool {
  /** The callable name the model sees (letters, digits, underscore). */
  name: string;
  /** Shown to people as the tool call's metaInfo name. */
  displayName: string;
  description: string;
  /** A plugin, MCP tool or workflow: how the reply's checkPluginsList names it. */
  plugin?: CheckPluginItem;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** The plugin behind this tool, when it is one (cards bound to plugins use it). */
  pluginId?: string;
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

/** Changes an agent's tools after the kinds made them (e.g. a bound card reports the tool's result). */
export interface ToolDecorator {
  decorate(tools: RuntimeTool[], ctx: ToolContext): Promise<RuntimeTool[]>;
}

/** The one tool registry: other modules register their kinds; the runtime asks it for an agent's tools. */
export class ToolRegistry {
  private readonly kinds = new Map<string, ToolKind>();
  private readonly decorators: ToolDecorator[] = [];

  register(kind: ToolKind) {
    this.kinds.set(kind.kind, kind);
  }

  decorate(decorator: ToolDecorator) {
    this.decorators.push(decorator);
  }

  kindsRegistered() {
    return [...this.kinds.keys()];
  }

  async toolsFor(ctx: ToolContext): Promise<Map<string, RuntimeTool>> {
    const out = new Map<string, RuntimeTool>();
    // Each kind reads its own bindings: asked together, in order of registration for the names.
    for (const tools of await Promise.all([...this.kinds.values()].map((kind) => kind.toolsFor(ctx))))
      for (const tool of tools) if (!out.has(tool.name)) out.set(tool.name, tool);
    if (!this.decorators.length || !out.size) return out;
    let tools = [...out.values()];
    for (const d of this.decorators) tools = await d.decorate(tools, ctx);
    return new Map(tools.map((t) => [t.name, t]));
  }
}
