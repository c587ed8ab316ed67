import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createSafeFetch } from "../../platform/net.ts";
import type { McpCaller } from "./plugin-runner.ts";

export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** A stdio server an administrator allowed: a command with fixed arguments, named. */
export interface StdioCommand {
  command: string;
  args: string[];
}

/** `name=command arg arg;name2=command ...` → named commands (arguments fixed here, never from users). */
export function parseStdioCommands(value: string): Map<string, StdioCommand> {
  const out = new Map<string, StdioCommand>();
  for (const entry of value.split(";")) {
    const at = entry.indexOf("=");
    if (at <= 0) continue;
    const [command, ...args] = entry
      .slice(at + 1)
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    if (command) out.set(entry.slice(0, at).trim(), { command, args });
  }
  return out;
}

export const STDIO_PREFIX = "stdio:";

/**
 * The MCP client: connects to a server by URL over streamable HTTP, falling back to SSE, every
 * request (both transports) through the platform's safe fetch, so the URL rules of HTTP plugins
 * hold at every connect and redirect. `stdio:NAME` servers run only a command an administrator
 * listed in MCP_STDIO_COMMANDS, with its fixed arguments. A connection lasts one listing or call.
 */
export const MCP_RESPONSE_MAX_BYTES = 8 * 1024 * 1024;

export class McpClient implements McpCaller {
  private readonly fetch: typeof fetch;

  constructor(private readonly opts: { allowHosts: string[]; timeoutMs: number; stdio: Map<string, StdioCommand> }) {
    // One answer (a tool list, a result, the SSE stream of one connection) of at most 8 MB: a server's
    // endless answer was read whole.
    this.fetch = createSafeFetch({ allowHosts: opts.allowHosts, maxResponseBytes: MCP_RESPONSE_MAX_BYTES });
  }

  stdioCommand(serverUrl: string): StdioCommand | undefined {
    return serverUrl.startsWith(STDIO_PREFIX) ? this.opts.stdio.get(serverUrl.slice(STDIO_PREFIX.length)) : undefined;
  }

  async listTools(serverUrl: string, signal?: AbortSignal): Promise<McpTool[]> {
    return this.withClient(serverUrl, signal, async (client) => {
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { signal: this.signal(signal) });
        for (const t of page.tools)
          tools.push({
            name: t.name,
            description: t.description ?? t.title ?? t.name,
            inputSchema: t.inputSchema as Record<string, unknown>,
          });
        cursor = page.nextCursor;
      } while (cursor && tools.length < 500);
      return tools;
    });
  }

  async call(def: { serverUrl: string; toolName: string }, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    return this.withClient(def.serverUrl, signal, async (client) => {
      const result = await client.callTool({ name: def.toolName, arguments: args }, undefined, { signal: this.signal(signal) });
      const content = (result.content ?? []) as { type: string; text?: string }[];
      const texts = content.filter((c) => c.type === "text").map((c) => c.text ?? "");
      const value = result.structuredContent ?? (texts.length === 1 ? parseText(texts[0]) : content);
      if (result.isError) throw new Error(texts.join("\n") || "the MCP tool failed");
      return value;
    });
  }

  private signal(outer?: AbortSignal) {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    return outer ? AbortSignal.any([outer, timeout]) : timeout;
  }

  private async withClient<T>(serverUrl: string, signal: AbortSignal | undefined, use: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.connect(serverUrl, signal);
    try {
      return await use(client);
    } finally {
      await client.close().catch(() => {});
    }
  }

  private async connect(serverUrl: string, signal?: AbortSignal): Promise<Client> {
    const stdio = this.stdioCommand(serverUrl);
    if (serverUrl.startsWith(STDIO_PREFIX)) {
      if (!stdio) throw new Error("this stdio server is not on the administrators' list");
      // No shell, no inherited environment beyond PATH: only the listed command runs.
      return this.open(
        new StdioClientTransport({ command: stdio.command, args: stdio.args, env: { PATH: process.env.PATH ?? "" }, stderr: "ignore" }),
        signal,
      );
    }
    const url = new URL(serverUrl);
    try {
      return await this.open(new StreamableHTTPClientTransport(url, { fetch: this.fetch }), signal);
    } catch (err) {
      if ((err as Error)?.name === "BlockedAddressError" || /blocked address/.test(String((err as Error)?.message))) throw err;
      // An older server answers the Streamable HTTP POST with a 4xx (the MCP spec's test for it): then
      // the HTTP+SSE transport, through the same safe fetch. Any other failure is the server's answer.
      const code = err instanceof StreamableHTTPError ? (err.code ?? 0) : 0;
      if (code < 400 || code >= 500) throw err;
      try {
        return await this.open(new SSEClientTransport(url, { fetch: this.fetch, eventSourceInit: { fetch: this.fetch } }), signal);
      } catch (older) {
        // Both answers: the first is the one that explains a modern server's failure.
        throw new Error(`${(err as Error).message}; over HTTP+SSE: ${(older as Error)?.message ?? older}`);
      }
    }
  }

  private async open(transport: Transport, signal?: AbortSignal): Promise<Client> {
    const client = new Client({ name: "agentfair", version: "1.0.0" });
    try {
      await client.connect(transport, { signal: this.signal(signal) });
      return client;
    } catch (err) {
      await client.close().catch(() => {});
      throw err;
    }
  }
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
