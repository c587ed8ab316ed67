// The slow test model of bench/load in a process of its own, as a real model is elsewhere: its
// 20-chunk answers then do not wait behind the bench's own clients. Reports its URL over IPC.
import { slowAnswers } from "../../apps/server/src/test/cluster.ts";
import { startLlmServer } from "../../apps/server/src/test/llm-server.ts";

const llm = await startLlmServer();
const chunks = Number(process.env.CHUNKS ?? 20);
slowAnswers(
  llm,
  { chunks: Array.from({ length: chunks }, (_, i) => `第${i + 1}句。`), delayMs: Number(process.env.DELAY_MS ?? 100) },
  100_000,
);
// What it answered is kept per request: a million requests' logs would be the bench's memory, not the model's.
setInterval(() => llm.requests.splice(0), 1000).unref();
process.send?.({ url: llm.url });
process.on("disconnect", () => process.exit(0));
process.on("message", (m: { type: string }) => {
  if (m.type === "cpu") process.send?.({ type: "cpu", ...process.cpuUsage() });
});
