// The servers bench.ts compares, each in its own process: `bare` is a Fastify hello-world with
// Fastify's defaults; `platform` is the whole app as deployed (request logging on, to a pipe).
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { createUser } from "../../apps/server/src/test/factories.ts";
import { createTestApp } from "../../apps/server/src/test/harness.ts";

if (process.argv[2] === "bare") {
  const app = Fastify();
  app.get("/", async () => ({ hello: "world" }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  process.send?.({ port: (app.server.address() as AddressInfo).port });
} else {
  const t = await createTestApp({
    LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
    REQUEST_LOG_SLOW_MS: process.env.REQUEST_LOG_SLOW_MS ?? "1000",
    CAPTCHA: "off",
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const user = await createUser(t);
  process.send?.({ port: (t.app.server.address() as AddressInfo).port, token: user.token, driver: t.platform.database.driver });
}
// The bench asks for the CPU time used so far (µs), to weigh each answer's cost beside the throughput.
process.on("message", () => {
  const { user, system } = process.cpuUsage();
  process.send?.(user + system);
});
process.on("disconnect", () => process.exit(0));
