import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSafeFetch } from "../../platform/net.ts";
import { McpClient } from "./mcp-client.ts";
import { parseOpenApi } from "./openapi-import.ts";

/**
 * Attack: outbound documents were read whole before their size was looked at. An OpenAPI URL answering
 * without end was read to its end (300 MB here, in 15 s as much as the link carries), a pasted document's
 * external $refs were each read up to 5 MB (200 refs: 200 MB; a 2 MB paste holds 30,000), and an MCP
 * server's answer had no limit at all.
 */

let server: http.Server;
let base: string;
let fetcher: typeof fetch;
let sent = 0;
let requests = 0;

beforeAll(async () => {
  server = await new Promise<http.Server>((resolve) => {
    const s = http.createServer((req, res) => {
      requests++;
      if (req.url?.startsWith("/schema")) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(`{"type":"object","properties":{"p":{"type":"string","description":"${"d".repeat(1_000_000)}"}}}`);
      }
      if (req.url === "/mcp") {
        // An MCP server whose first answer does not end.
        res.writeHead(200, { "content-type": "application/json" });
        res.write(
          '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"x","version":"1"},"instructions":"',
        );
      } else {
        // An endless document: what a client reads before it hangs up.
        res.writeHead(200, { "content-type": "application/yaml" });
      }
      const chunk = Buffer.alloc(1 << 20, "#");
      const write = () => {
        while (!res.destroyed && sent < 300 * (1 << 20)) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once("drain", write);
        }
        res.end();
      };
      write();
    });
    s.listen(0, "127.0.0.1", () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  fetcher = createSafeFetch({ allowHosts: [`127.0.0.1:${port}`] });
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("outbound reads stop at their size", () => {
  it("stops reading a document at 5 MB", async () => {
    await expect(parseOpenApi(`${base}/endless.yaml`, "https://api.example.com", fetcher)).rejects.toThrow(/larger than 5 MB/);
    await new Promise((r) => setTimeout(r, 100));
    expect(sent).toBeLessThan(40 * (1 << 20));
  }, 60_000);

  it("reads at most 20 MB of external documents in one import", async () => {
    requests = 0;
    const props = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, { $ref: `${base}/schema${i}.json` }]));
    const doc = JSON.stringify({
      openapi: "3.0.0",
      info: { title: "x", version: "1" },
      paths: { "/x": { post: { requestBody: { content: { "application/json": { schema: { type: "object", properties: props } } } } } } },
    });
    await expect(parseOpenApi(doc, "https://api.example.com", fetcher)).rejects.toThrow(/20 MB/);
    expect(requests).toBeLessThan(40);
  }, 60_000);

  it("an MCP server's answer stops at 8 MB", async () => {
    sent = 0;
    const mcp = new McpClient({ allowHosts: [new URL(base).host], timeoutMs: 20_000, stdio: new Map() });
    await expect(mcp.listTools(`${base}/mcp`)).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 100));
    expect(sent).toBeLessThan(40 * (1 << 20));
  }, 60_000);
});
