import { parseChatEvents } from "@agentfair/contracts";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { chatChargeFlags, chatMessages, freeChatUsage } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";
import { agentSteps } from "../agents/agents.fixtures.ts";
import { balanceOf, ledgerOf } from "../billing/billing.fixtures.ts";
import { ChatRepository } from "./chat.repository.ts";

/** A reply the database refused to keep: the asker is told so, and it costs nothing. */
describe("chat: a reply whose saving fails", () => {
  let t: TestApp;
  let llm: LlmServer;
  let owner: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    llm = await startLlmServer();
    t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
    owner = await createUser(t, { memberLevel: "MONTHLY" });
    admin = await createUser(t, { username: "admin" });
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  /** The reply's insert fails as a lost connection would; the question's insert still works. */
  const failReplySaves = () => {
    const insert = ChatRepository.prototype.insertMessage;
    return vi.spyOn(ChatRepository.prototype, "insertMessage").mockImplementation(function (this: ChatRepository, row) {
      if (row.role === "bot") return Promise.reject(new Error("Connection terminated unexpectedly"));
      return insert.call(this, row);
    });
  };

  const chat = async (user: TestUser, schemaId: string, extra: Record<string, unknown> = {}) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: user.token, schema_id: schemaId, release: true, query: "你好", ...extra },
    });
    expect(res.statusCode).toBe(200);
    return parseChatEvents(res.payload);
  };

  it("ends with an error event and a failed stop, and the per-use price is given back", async () => {
    const id = await agentSteps(t).listed(owner, admin, { price: 2, name: "保存失败付费" });
    const hirer = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY", balanceCents: 1000 });
    failReplySaves();
    const evs = await chat(hirer, id);
    expect(evs.some((e) => e.type === "content")).toBe(true);
    expect(evs.find((e) => e.type === "error")).toMatchObject({ error_code: "notSaved", msg: "本次回答未能保存，未扣费，请重新提问" });
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "failed" });
    const sid = evs[0]?.type === "session" ? evs[0].session_id : "";
    const kept = await t.platform.db.select().from(chatMessages).where(eq(chatMessages.sessionId, sid));
    expect(kept.map((m) => m.role)).toEqual(["user"]);
    // Charged, then refunded in full: the ledger explains the unchanged balance.
    expect((await balanceOf(t, hirer.id)).balanceCents).toBe(1000);
    const ledger = await ledgerOf(t, hirer.id);
    expect(ledger.map((l) => [l.kind, l.amountCents]).sort()).toEqual([
      ["REFUND", 200],
      ["USE", -200],
    ]);
    // The charge's usage stretch is closed: the next send in the session pays (and, saved, keeps it).
    const flags = await t.platform.db
      .select()
      .from(chatChargeFlags)
      .where(and(eq(chatChargeFlags.userId, hirer.id), eq(chatChargeFlags.sessionId, sid)));
    expect(flags).toHaveLength(0);
    vi.restoreAllMocks();
    const again = await chat(hirer, id, { session_id: sid });
    expect(again.at(-1)).toMatchObject({ type: "stop", status: "done" });
    expect((await balanceOf(t, hirer.id)).balanceCents).toBe(800);
  });

  it("counts a free user's daily chat back, in the reader's language", async () => {
    const id = await agentSteps(t).listed(owner, admin, { name: "保存失败免费" });
    const free = await createUser(t, { memberLevel: "FREE" });
    failReplySaves();
    const evs = await chat(free, id, {});
    expect(evs.find((e) => e.type === "error")).toMatchObject({ error_code: "notSaved" });
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "failed" });
    const [usage] = await t.platform.db.select().from(freeChatUsage).where(eq(freeChatUsage.userId, free.id));
    expect(usage?.count ?? 0).toBe(0);
    const en = await t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      headers: { lang: "en" },
      payload: { token: free.token, schema_id: id, release: true, query: "hello" },
    });
    expect(en.payload).toContain("This reply could not be saved and was not charged.");
  });

  it("a saved reply still ends done and stays charged", async () => {
    const id = await agentSteps(t).listed(owner, admin, { price: 1, name: "保存成功付费" });
    const hirer = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY", balanceCents: 500 });
    const evs = await chat(hirer, id);
    expect(evs.some((e) => e.type === "error")).toBe(false);
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
    expect((await balanceOf(t, hirer.id)).balanceCents).toBe(400);
  });

  it("a NUL character from the model or the asker is left out, not the whole message (the database cannot hold one)", async () => {
    const id = await agentSteps(t).listed(owner, admin, { name: "零字符" });
    llm.script({ chunks: ["答\u0000案", "完毕"] });
    const evs = await chat(owner, id, { query: "问\u0000题" });
    expect(evs.at(-1)).toMatchObject({ type: "stop", status: "done" });
    const sid = evs[0]?.type === "session" ? evs[0].session_id : "";
    const kept = await t.platform.db.select().from(chatMessages).where(eq(chatMessages.sessionId, sid));
    expect(kept.map((m) => [m.role, m.content]).sort()).toEqual([
      ["bot", "答案完毕"],
      ["user", "问题"],
    ]);
  });
});
