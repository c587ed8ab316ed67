import type { AgentDraft } from "@agentfair/contracts";
import { expect } from "vitest";
import type { TestUser } from "../../test/factories.ts";
import type { TestApp } from "../../test/harness.ts";

/** Test steps through the real calls, shared by the agents test files. */
export function agentSteps(t: TestApp) {
  const call = (user: TestUser | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: user ? user.headers : {} });

  const caller = async (user: TestUser) => (await t.platform.callers.resolve(user.token))!;

  const create = async (user: TestUser, agentName = "测试助手") => {
    const res = await call(user, "POST", "/aiagent_api/agent/quick/add", { agentName });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.agentId as string;
  };

  const draft = async (user: TestUser, id: string) => (await call(user, "GET", `/aiagent_api/agent/draft/${id}`)).json().data;

  const save = async (user: TestUser, id: string, patch: Partial<AgentDraft> = {}) => {
    const current = (await draft(user, id)).draft as AgentDraft;
    return call(user, "PUT", `/aiagent_api/agent/draft/${id}`, { ...current, ...patch });
  };

  /** A debug run of the current revision, as the chat runtime reports it. */
  const debugOk = async (user: TestUser, id: string) => {
    const d = await draft(user, id);
    await t.services.agents.markDebugSucceeded(await caller(user), id, d.revision);
  };

  const release = (user: TestUser, id: string, notes = "v") => call(user, "POST", `/aiagent_api/agent/release/${id}`, { notes });

  /** Created, edited, debugged and released: an agent with a version. */
  const released = async (user: TestUser, patch: Partial<AgentDraft> = {}, name = "发布助手") => {
    const id = await create(user, name);
    expect((await save(user, id, { persona: "你是一名测试助手", ...patch })).statusCode).toBe(200);
    await debugOk(user, id);
    expect((await release(user, id)).statusCode).toBe(200);
    return id;
  };

  /** Released, submitted (copies allowed unless `copyable: false`) and approved by the administrator: listed. */
  const listed = async (
    user: TestUser,
    admin: TestUser,
    opts: { price?: number; patch?: Partial<AgentDraft>; name?: string; copyable?: boolean } = {},
  ) => {
    const id = await released(user, opts.patch, opts.name);
    if (opts.price)
      expect(
        (await call(user, "PUT", `/agent_api/api/agent/intro/${id}`, { agentName: opts.name ?? "发布助手", price: opts.price })).statusCode,
      ).toBe(200);
    expect(
      (await call(user, "POST", "/agent_api/api/agentApply/saveInfo", { agentId: id, copyable: opts.copyable ?? true })).statusCode,
    ).toBe(200);
    await approvePending(admin, id);
    return id;
  };

  /** The administrator approves the agent's pending listing request. */
  const approvePending = async (admin: TestUser, id: string) => {
    const queue = (await call(admin, "POST", "/agent_api/api/agentApply/page", { status: "PENDING", size: 100 })).json().data;
    const apply = queue.list.find((a: { agentId: string }) => a.agentId === id);
    expect(apply, "a pending listing request").toBeTruthy();
    expect((await call(admin, "POST", `/agent_api/api/agentApply/approve/${apply.id}`)).statusCode).toBe(200);
  };

  const market = async (user: TestUser | null, body: object = {}) =>
    (await call(user, "POST", "/agent_api/api/agent/launch/page", body)).json().data;
  const mine = async (user: TestUser | null, body: object = {}) =>
    (await call(user, "POST", "/agent_api/api/agent/page-created-by-me", body)).json().data;

  return { call, caller, create, draft, save, debugOk, release, released, listed, approvePending, market, mine };
}
