// The baseline of bench/load: a bare Node HTTP server streaming the same answer as server-sent
// events (same chunks, same pace) and nothing else. Reports its port over IPC.
import http from "node:http";
import type { AddressInfo } from "node:net";

const CHUNKS = Number(process.env.CHUNKS ?? 20);
const DELAY_MS = Number(process.env.DELAY_MS ?? 100);
const server = http.createServer((req, res) => {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let i = 0;
  const timer = setInterval(() => {
    i += 1;
    res.write(`data: ${JSON.stringify({ type: "content", content: `第${i}句。` })}\n\n`);
    if (i >= CHUNKS) {
      clearInterval(timer);
      res.end();
    }
  }, DELAY_MS);
  req.on("close", () => clearInterval(timer));
});
server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as AddressInfo).port, pid: process.pid }));
process.on("disconnect", () => process.exit(0));
// Its memory after a full collection (started with --expose-gc), measured as the platform's is, and its CPU time.
process.on("message", (m: { type: string }) => {
  if (m.type !== "memory") return;
  globalThis.gc?.();
  const { user, system } = process.cpuUsage();
  process.send?.({ type: "memory", ...process.memoryUsage(), cpuMs: (user + system) / 1000 });
});
