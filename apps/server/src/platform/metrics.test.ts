import Fastify from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { Metrics } from "./metrics.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: "scrape-secret" });
});
afterAll(async () => {
  await t.close();
});

it("/metrics needs the token, and counts requests by route pattern", async () => {
  await t.app.inject({ url: "/healthz" });
  await t.app.inject({ url: "/agent/agent_runtime/agent_info?id=no-such-agent" });
  expect((await t.app.inject({ url: "/metrics" })).statusCode).toBe(401);
  expect((await t.app.inject({ url: "/metrics", headers: { authorization: "Bearer scrape-secreT" } })).statusCode).toBe(401);
  const res = await t.app.inject({ url: "/metrics", headers: { authorization: "Bearer scrape-secret" } });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toContain("text/plain");
  expect(res.body).toContain('agentfair_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"} 1');
  // The pattern, not the URL: no ids in label values.
  expect(res.body).toContain('route="/agent/agent_runtime/agent_info"');
  expect(res.body).not.toContain("no-such-agent");
  for (const name of [
    "agentfair_chat_streams 0",
    "agentfair_chat_first_token_seconds",
    "agentfair_job_queue_depth",
    "agentfair_db_pool_connections",
  ])
    expect(res.body).toContain(name);
});

it("without METRICS_TOKEN there is no /metrics, and requests are not timed", async () => {
  const app = Fastify();
  new Metrics().install(app, "");
  expect((await app.inject({ url: "/metrics" })).statusCode).toBe(404);
  expect(app.hasRoute({ method: "GET", url: "/metrics" })).toBe(false);
});
