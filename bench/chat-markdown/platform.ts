// The platform serving the built web app (WEB_DIST) with the bench's test model (LLM_URL) as its
// default, in its own process as in production: started by bench.ts, which gets back its port, a
// member's token and a released agent to chat with.
import type { AddressInfo } from "node:net";
import { createUser } from "../../apps/server/src/test/factories.ts";
import { createTestApp } from "../../apps/server/src/test/harness.ts";

const t = await createTestApp({
  WEB_DIST: process.env.WEB_DIST ?? "",
  MODEL_BASE_URL: process.env.LLM_URL ?? "",
  MODEL_NAME: "test-model",
  MODEL_API_KEY: "k",
  LOG_LEVEL: "silent",
});
await t.app.listen({ port: 0, host: "127.0.0.1" });
const user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
const call = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, headers: user.headers, payload });
await call("POST", "/agent_api/api/userinfo/firstLoginDone", { survey: "skipped" });
const agentId = (await call("POST", "/aiagent_api/agent/quick/add", { agentName: "Bench" })).json().data.agentId as string;
// Released, as people chat with it: the debug run that unlocks release is recorded directly.
const revision = (await call("GET", `/aiagent_api/agent/draft/${agentId}`)).json().data.revision;
await t.services.agents.markDebugSucceeded((await t.platform.callers.resolve(user.token))!, agentId, revision);
if ((await call("POST", `/aiagent_api/agent/release/${agentId}`, { notes: "bench" })).statusCode !== 200) throw new Error("release failed");
process.send?.({ port: (t.app.server.address() as AddressInfo).port, token: user.token, agentId });
process.on("disconnect", () => void t.close().finally(() => process.exit(0)));
