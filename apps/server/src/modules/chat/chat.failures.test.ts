import { parseChatEvents } from "@agentfair/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";
import { balanceOf, ledgerOf } from "../billing/billing.fixtures.ts";

/** Replies that cannot be given cost nothing, and a stream always ends, however the reply fails. */
describe("chat failures", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(); // no model configured
  });
  afterAll(async () => t.close());

  const events = parseChatEvents;

  it("with no usable model, a priced agent's reply says so and nothing is charged", async () => {
    const s = agentSteps(t);
    const owner = await createUser(t, { memberLevel: "MONTHLY" });
    const admin = await createUser(t, { username: "admin" });
    const hirer = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY", balanceCents: 1000 });
    const id = await s.listed(owner, admin, { price: 2, name: "付费助手" });
    const res = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: hirer.token, schema_id: id, release: true, query: "你好" },
    });
    expect(res.statusCode).toBe(200);
    const evs = events(res.payload);
    expect(evs.find((e) => e.type === "error")).toMatchObject({ code: 503 });
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "failed" });
    expect((await balanceOf(t, hirer.id)).balanceCents).toBe(1000);
    expect(await ledgerOf(t, hirer.id)).toHaveLength(0);
  });

  it("a reply that crashes still ends its stream with an error and a stop", async () => {
    const user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
    const id = await agentSteps(t).create(user);
    const service = t.services.chat.chat;
    const run = service.run;
    service.run = async () => {
      throw new Error("boom");
    };
    try {
      const res = await t.app.inject({
        method: "POST",
        url: "/agent/agent_runtime/chat",
        payload: { token: user.token, schema_id: id, release: false, query: "你好" },
      });
      expect(res.statusCode).toBe(200);
      expect(events(res.payload).map((e) => e.type)).toEqual(["error", "stop"]);
    } finally {
      service.run = run;
    }
  });
});
