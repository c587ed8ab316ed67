import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { models as modelsTable } from "../../db/schema/index.ts";
import { createTenant, createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";

/**
 * Tenant administrators manage their own tenant's models. `llm` is on the operator's host
 * allow-list (NET_ALLOW_HOSTS); `intranet` is another loopback server that nobody allowed.
 */
const M = "/agent_api/api/models";
let t: TestApp;
let llm: LlmServer;
let intranet: LlmServer;
let boss: TestUser;
let acmeAdmin: TestUser;
let acmeUser: TestUser;
let globexAdmin: TestUser;
let publicUser: TestUser;
let platformModelId: string;

const body = (over: Record<string, unknown> = {}) => ({
  name: "Acme LLM",
  type: "LLM",
  baseUrl: llm.url,
  apiKey: "sk-acme",
  modelId: "acme-model",
  ...over,
});
const call = (u: TestUser | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: u?.headers ?? {}, ...(payload === undefined ? {} : { payload: payload as object }) });
const grant = async (u: TestUser) => {
  const res = await call(boss, "PUT", `/agent_api/api/admin/tenants/${u.tenantId}/role`, { username: u.username, role: "admin" });
  expect(res.statusCode).toBe(200);
};
const rowOf = async (id: string) => (await t.platform.db.select().from(modelsTable).where(eq(modelsTable.id, id)))[0];

/** One chat turn of `u` with a fresh agent; returns the model id the test server was asked for. */
async function chatModelOf(u: TestUser) {
  const agent = await call(u, "POST", "/aiagent_api/agent/quick/add", { agentName: "助手" });
  expect(agent.statusCode).toBe(200);
  const before = llm.requests.length;
  const res = await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token: u.token, schema_id: agent.json().data.agentId, release: false, query: "你好" },
  });
  const lines = res.payload
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines.at(-1)).toMatchObject({ type: "stop", status: "done" });
  const sent = llm.requests.slice(before).find((r) => r.path.endsWith("/chat/completions"));
  return { model: sent?.body.model, authorization: sent?.authorization };
}

beforeAll(async () => {
  llm = await startLlmServer();
  intranet = await startLlmServer();
  t = await createTestApp({
    ADMIN_USERNAMES: "boss",
    NET_ALLOW_HOSTS: new URL(llm.url).host,
    MODEL_BASE_URL: llm.url,
    MODEL_NAME: "platform-model",
    MODEL_API_KEY: "sk-platform",
  });
  await createTenant(t, "acme");
  await createTenant(t, "globex");
  boss = await createUser(t, { username: "boss" });
  acmeAdmin = await createUser(t, { domain: "acme", username: "ada" });
  acmeUser = await createUser(t, { domain: "acme", username: "al", memberLevel: "ENT_FLAGSHIP_MONTHLY" });
  globexAdmin = await createUser(t, { domain: "globex", username: "gil" });
  publicUser = await createUser(t, { username: "pat", memberLevel: "PER_FLAGSHIP_MONTHLY" });
  await grant(acmeAdmin);
  await grant(globexAdmin);
  platformModelId = (await call(boss, "GET", M)).json().data[0].id;
});
afterAll(async () => {
  await t.close();
  await llm.close();
  await intranet.close();
});

describe("Model management by a tenant administrator", () => {
  it("creates, lists, updates, tests and deletes its own tenant's models", async () => {
    const created = await call(acmeAdmin, "POST", M, { ...body(), tenantId: globexAdmin.tenantId });
    expect(created.statusCode).toBe(200);
    const model = created.json().data;
    // the tenant comes from the caller, never from the body
    expect(model).toMatchObject({ tenantId: acmeAdmin.tenantId, name: "Acme LLM", hasApiKey: true, allowPrivate: false });
    expect(JSON.stringify(created.json())).not.toContain("sk-acme");

    const list = (await call(acmeAdmin, "GET", M)).json().data as { id: string }[];
    expect(list.map((m) => m.id)).toEqual([model.id]);

    const edit = await call(acmeAdmin, "PUT", `${M}/${model.id}`, body({ apiKey: "", rpmLimit: 7, name: "Acme LLM 2" }));
    expect(edit.json().data).toMatchObject({ name: "Acme LLM 2", rpmLimit: 7, hasApiKey: true, tenantId: acmeAdmin.tenantId });

    const test = await call(acmeAdmin, "POST", `${M}/${model.id}/test`, {});
    expect(test.json().data.ok).toBe(true);
    expect(llm.requests.at(-1)?.authorization).toBe("Bearer sk-acme");

    expect((await call(acmeAdmin, "DELETE", `${M}/${model.id}`)).statusCode).toBe(200);
    expect(await rowOf(model.id)).toBeUndefined();
    expect((await call(acmeAdmin, "GET", M)).json().data).toEqual([]);
  });

  it("cannot set allowPrivate: it is forced off, and safe fetch refuses the private address", async () => {
    const created = await call(acmeAdmin, "POST", M, body({ baseUrl: intranet.url, allowPrivate: true, name: "sneaky" }));
    const id = created.json().data.id;
    expect(created.json().data.allowPrivate).toBe(false);
    const edit = await call(acmeAdmin, "PUT", `${M}/${id}`, body({ baseUrl: intranet.url, allowPrivate: true, name: "sneaky" }));
    expect(edit.json().data.allowPrivate).toBe(false);
    expect((await rowOf(id)).allowPrivate).toBe(false);
    for (const baseUrl of [intranet.url, "http://169.254.169.254/latest", "http://localhost:9/v1", "http://10.0.0.1/v1"]) {
      await call(acmeAdmin, "PUT", `${M}/${id}`, body({ baseUrl, allowPrivate: true, name: "sneaky" }));
      const test = await call(acmeAdmin, "POST", `${M}/${id}/test`, {});
      expect(test.json().data.ok, baseUrl).toBe(false);
      expect(test.json().data.message, baseUrl).toContain("内网");
      // A tenant administrator has no such switch: no hint to tick it.
      expect(test.json().data.message, baseUrl).not.toContain("允许内网地址");
    }
    expect(intranet.requests).toHaveLength(0);
    // a platform administrator may still allow it (an operator's decision)
    const bossEdit = await call(boss, "PUT", `${M}/${id}`, body({ baseUrl: intranet.url, allowPrivate: true, name: "sneaky" }));
    expect(bossEdit.json().data).toMatchObject({ allowPrivate: true, tenantId: acmeAdmin.tenantId });
    // ...until the tenant administrator edits it again
    const again = await call(acmeAdmin, "PUT", `${M}/${id}`, body({ baseUrl: intranet.url, name: "sneaky" }));
    expect(again.json().data.allowPrivate).toBe(false);
    expect((await call(acmeAdmin, "POST", `${M}/${id}/test`, {})).json().data.ok).toBe(false);
    expect(intranet.requests).toHaveLength(0);
    await call(acmeAdmin, "DELETE", `${M}/${id}`);
  });

  it("cannot see or change another tenant's model or a platform model: not found", async () => {
    const globexModel = (await call(globexAdmin, "POST", M, body({ name: "Globex LLM", apiKey: "sk-globex" }))).json().data;
    const acmeList = (await call(acmeAdmin, "GET", M)).json().data as { id: string }[];
    expect(acmeList.map((m) => m.id)).not.toContain(globexModel.id);
    expect(acmeList.map((m) => m.id)).not.toContain(platformModelId);
    for (const id of [globexModel.id, platformModelId]) {
      for (const [method, url, payload] of [
        ["PUT", `${M}/${id}`, body({ name: "taken", baseUrl: intranet.url, allowPrivate: true })],
        ["POST", `${M}/${id}/test`, {}],
        ["DELETE", `${M}/${id}`, undefined],
      ] as const) {
        const res = await call(acmeAdmin, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    expect((await rowOf(globexModel.id)).name).toBe("Globex LLM");
    expect(await rowOf(platformModelId)).toMatchObject({ name: "platform-model", tenantId: null });
    // the platform administrator still manages every model
    const all = (await call(boss, "GET", M)).json().data as { id: string }[];
    expect(all.map((m) => m.id)).toEqual(expect.arrayContaining([globexModel.id, platformModelId]));
    await call(globexAdmin, "DELETE", `${M}/${globexModel.id}`);
  });

  it("is forbidden for plain tenant users and default-tenant users; anonymous callers sign in", async () => {
    const some = (await call(boss, "GET", M)).json().data[0].id;
    for (const who of [acmeUser, publicUser]) {
      for (const [method, url, payload] of [
        ["GET", M, undefined],
        ["POST", M, body()],
        ["PUT", `${M}/${some}`, body()],
        ["POST", `${M}/${some}/test`, {}],
        ["DELETE", `${M}/${some}`, undefined],
      ] as const) {
        const res = await call(who, method, url, payload);
        expect(res.statusCode, `${who.username} ${method} ${url}`).toBe(401);
        expect(res.json().msg).toBe("没有权限");
      }
    }
    expect((await call(null, "GET", M)).statusCode).toBe(403);
    expect(await rowOf(some)).toBeDefined();
  });

  it("keeps one default per tenant scope: a tenant's default leaves the platform's and other tenants' alone", async () => {
    const globexDefault = (await call(globexAdmin, "POST", M, body({ name: "G", isDefault: true }))).json().data;
    const first = (await call(acmeAdmin, "POST", M, body({ name: "A1", isDefault: true }))).json().data;
    const second = (await call(acmeAdmin, "POST", M, body({ name: "A2", isDefault: true }))).json().data;
    const acme = (await call(acmeAdmin, "GET", M)).json().data as { id: string; isDefault: boolean }[];
    expect(acme.filter((m) => m.isDefault).map((m) => m.id)).toEqual([second.id]);
    expect((await rowOf(first.id)).isDefault).toBe(false);
    expect((await rowOf(globexDefault.id)).isDefault).toBe(true);
    expect((await rowOf(platformModelId)).isDefault).toBe(true);
    for (const id of [first.id, second.id]) await call(acmeAdmin, "DELETE", `${M}/${id}`);
    await call(globexAdmin, "DELETE", `${M}/${globexDefault.id}`);
  });

  it("a chat in the tenant runs on the tenant's default model at once; other tenants keep the platform's", async () => {
    // warm the model cache of both scopes first: a change must clear the right one
    expect(await chatModelOf(acmeUser)).toMatchObject({ model: "platform-model", authorization: "Bearer sk-platform" });
    expect((await chatModelOf(publicUser)).model).toBe("platform-model");

    const own = (await call(acmeAdmin, "POST", M, body({ modelId: "acme-model", isDefault: true }))).json().data;
    expect(await chatModelOf(acmeUser)).toMatchObject({ model: "acme-model", authorization: "Bearer sk-acme" });
    expect((await chatModelOf(acmeAdmin)).model).toBe("acme-model");
    expect((await chatModelOf(publicUser)).model).toBe("platform-model");

    // the studio's choice shows the tenant's own model to its users only
    const options = async (u: TestUser) => ((await call(u, "GET", `${M}/options`)).json().data as { id: string }[]).map((o) => o.id);
    expect(await options(acmeUser)).toContain(own.id);
    expect(await options(publicUser)).not.toContain(own.id);

    await call(acmeAdmin, "PUT", `${M}/${own.id}`, body({ modelId: "acme-model-2", isDefault: true }));
    expect((await chatModelOf(acmeUser)).model).toBe("acme-model-2");
    await call(acmeAdmin, "DELETE", `${M}/${own.id}`);
    expect((await chatModelOf(acmeUser)).model).toBe("platform-model");

    // a platform model is in every tenant's list: its change reaches every tenant at once
    const platformEdit = body({ name: "platform-model", modelId: "platform-model-2", apiKey: "", isDefault: true, allowPrivate: true });
    expect((await call(boss, "PUT", `${M}/${platformModelId}`, platformEdit)).statusCode).toBe(200);
    expect((await chatModelOf(acmeUser)).model).toBe("platform-model-2");
    expect((await chatModelOf(publicUser)).model).toBe("platform-model-2");
    await call(boss, "PUT", `${M}/${platformModelId}`, { ...platformEdit, modelId: "platform-model" });
  });

  it("loses model management on the next request once the role is revoked", async () => {
    expect((await call(acmeAdmin, "GET", M)).statusCode).toBe(200);
    await call(boss, "PUT", `/agent_api/api/admin/tenants/${acmeAdmin.tenantId}/role`, { username: "ada", role: "member" });
    expect((await call(acmeAdmin, "GET", M)).statusCode).toBe(401);
    expect((await call(acmeAdmin, "POST", M, body())).statusCode).toBe(401);
    await grant(acmeAdmin);
    expect((await call(acmeAdmin, "GET", M)).statusCode).toBe(200);
  });
});
