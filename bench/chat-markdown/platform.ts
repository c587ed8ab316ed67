// The platform serving the built web app (WEB_DIST) with the bench's test model (LLM_URL) as its
// default, in its own process as in production: started by bench.ts, which gets back its port, a
// member's token and a released agent to chat with.
import type { AddressInfo } from "node:net";
import { memberWithReleasedAgent } from "../../apps/server/src/test/factories.ts";
import { createTestApp } from "../../apps/server/src/test/harness.ts";

const t = await createTestApp({
  WEB_DIST: process.env.WEB_DIST ?? "",
  MODEL_BASE_URL: process.env.LLM_URL ?? "",
  MODEL_NAME: "test-model",
  MODEL_API_KEY: "k",
  LOG_LEVEL: "silent",
});
await t.app.listen({ port: 0, host: "127.0.0.1" });
const { user, agentId } = await memberWithReleasedAgent(t, "Bench");
process.send?.({ port: (t.app.server.address() as AddressInfo).port, token: user.token, agentId });
process.on("disconnect", () => void t.close().finally(() => process.exit(0)));
