import { describe, expect, it } from "vitest";
import { clientSnippets, serverName } from "./snippets";

describe("MCP client settings", () => {
  it("carry the endpoint and the key as a bearer header, as valid JSON", () => {
    const s = clientSnippets({
      name: "agentfair-x",
      httpUrl: "https://a.example/mcp/1",
      sseUrl: "https://a.example/mcp/1/sse",
      key: "afk_k",
    });
    expect(JSON.parse(s.cursor).mcpServers["agentfair-x"]).toEqual({
      url: "https://a.example/mcp/1",
      headers: { Authorization: "Bearer afk_k" },
    });
    expect(JSON.parse(s.cherry).mcpServers["agentfair-x"]).toMatchObject({ type: "streamableHttp", baseUrl: "https://a.example/mcp/1" });
    expect(JSON.parse(s.sse).mcpServers["agentfair-x"]).toMatchObject({ type: "sse", url: "https://a.example/mcp/1/sse" });
    expect(JSON.parse(s.claude).mcpServers["agentfair-x"].args).toContain("Authorization: Bearer afk_k");
  });

  it("name the server with letters, digits and dashes only", () => {
    expect(serverName("旅行 助手 {1}")).toBe("agentfair-旅行-助手-1-");
    expect(serverName("")).toBe("agentfair-agent");
  });
});
