// The platform under test, in its own process as in production: started by bench.ts, which
// sends it the test model's address and gets back where to call and as whom.
import type { AddressInfo } from "node:net";
import { memberWithReleasedAgent } from "../../apps/server/src/test/factories.ts";
import { createTestApp } from "../../apps/server/src/test/harness.ts";

const t = await createTestApp({
  MODEL_BASE_URL: process.env.LLM_URL ?? "",
  MODEL_NAME: "test-model",
  MODEL_API_KEY: "k",
  LOG_LEVEL: "silent",
  // One user on one address asks RUNS times in a row: the chat limits would measure the 429, not the reply.
  CHAT_PER_MINUTE: "100000",
  CHAT_PER_MINUTE_PER_IP: "100000",
});
await t.app.listen({ port: 0, host: "127.0.0.1" });
const { user, agentId } = await memberWithReleasedAgent(t, "Bench");
process.send?.({ port: (t.app.server.address() as AddressInfo).port, token: user.token, agentId, driver: t.platform.database.driver });
process.on("disconnect", () => void t.close().finally(() => process.exit(0)));
