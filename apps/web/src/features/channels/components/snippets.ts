/** Connection settings for common MCP clients, with the key as a bearer header. */
export function clientSnippets(opts: { name: string; httpUrl: string; sseUrl: string; key: string }) {
  const auth = { Authorization: `Bearer ${opts.key}` };
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  return {
    claude: json({
      mcpServers: {
        [opts.name]: { command: "npx", args: ["-y", "mcp-remote", opts.httpUrl, "--header", `Authorization: Bearer ${opts.key}`] },
      },
    }),
    cursor: json({ mcpServers: { [opts.name]: { url: opts.httpUrl, headers: auth } } }),
    cherry: json({ mcpServers: { [opts.name]: { type: "streamableHttp", baseUrl: opts.httpUrl, headers: auth } } }),
    sse: json({ mcpServers: { [opts.name]: { type: "sse", url: opts.sseUrl, headers: auth } } }),
  };
}

/** A name MCP clients accept as a server key. */
export const serverName = (agentName: string) => `agentfair-${agentName.replace(/[^\p{L}\p{N}_-]+/gu, "-").slice(0, 40) || "agent"}`;
