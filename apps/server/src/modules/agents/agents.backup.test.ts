import { eq } from "drizzle-orm";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents, planTemplates, users } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { type LlmServer, startLlmServer } from "../../test/llm-server.ts";

let t: TestApp;
let llm: LlmServer;
let alice: TestUser;
let bob: TestUser;
let released: string;
let draftOnly: string;

const api = async (user: TestUser, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
  t.app.inject({ method, url: `/aiagent_api${url}`, payload: payload as never, headers: user.headers });

function form(name: string, data: Buffer) {
  const boundary = "----agentfair-backup";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/zip\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
const importZip = async (user: TestUser, name: string, data: Buffer) => {
  const f = form(name, data);
  const res = await t.app.inject({
    method: "POST",
    url: "/aiagent_api/agent/import",
    payload: f.payload,
    headers: { ...user.headers, ...f.headers },
  });
  return {
    status: res.statusCode,
    ...(res.json() as { code: number; msg: string; data: { agentId: string; agentName: string; missing: Record<string, string[]> } }),
  };
};

beforeAll(async () => {
  llm = await startLlmServer();
  t = await createTestApp({ MODEL_BASE_URL: llm.url, MODEL_NAME: "test-model", MODEL_API_KEY: "k" });
  alice = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  bob = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  released = (await api(alice, "POST", "/agent/quick/add", { agentName: "备份助手" })).json().data.agentId;
  const draft = (await api(alice, "GET", `/agent/draft/${released}`)).json().data;
  if (draft?.draft) {
    await api(alice, "PUT", `/agent/draft/${released}`, {
      ...draft.draft,
      persona: "你是备份测试助手",
      bindings: { ...draft.draft.bindings, knowledgeBases: ["kb-1"] },
    });
  }
  await t.app.inject({
    method: "POST",
    url: "/agent/agent_runtime/chat",
    payload: { token: alice.token, schema_id: released, release: false, query: "调试" },
  });
  expect((await api(alice, "POST", `/agent/release/${released}`, { notes: "" })).statusCode).toBe(200);
  draftOnly = (await api(alice, "POST", "/agent/quick/add", { agentName: "未发布" })).json().data.agentId;
}, 60_000);
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("backup and restore", () => {
  it("exports a released agent only, for its owner only", async () => {
    const notReleased = await t.app.inject({ url: `/aiagent_api/agent/${draftOnly}/export`, headers: { ...alice.headers, lang: "en" } });
    expect(notReleased.json().msg).toBe("An agent must be released before export");
    expect((await api(bob, "GET", `/agent/${released}/export`)).statusCode).toBe(404);
    const res = await api(alice, "GET", `/agent/${released}/export`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/zip");
    const zip = await JSZip.loadAsync(res.rawPayload);
    const m = JSON.parse(await zip.file("manifest.json")!.async("string"));
    expect(m).toMatchObject({ schemaVersion: 1, versionNo: 1, agent: { agentName: "备份助手" } });
  });

  it("restores as a new agent of the importer, with references it cannot use reported", async () => {
    const data = (await api(alice, "GET", `/agent/${released}/export`)).rawPayload;
    const own = await importZip(alice, "backup.zip", data);
    expect(own.code).toBe(200);
    expect(own.data.agentId).not.toBe(released);
    expect(own.data.missing).toEqual({});
    const other = await importZip(bob, "backup.zip", data);
    expect(other.code).toBe(200);
    const restored = (await api(bob, "GET", `/agent/draft/${other.data.agentId}`)).json().data;
    expect(restored.draft.agentName).toBe("备份助手");
    expect(restored.agentStatus).toBe("C00_Unreleased");
    expect(restored.draft.bindings.knowledgeBases ?? []).toEqual([]);
    // Bob's copy is Bob's: Alice cannot read it.
    expect((await api(alice, "GET", `/agent/draft/${other.data.agentId}`)).statusCode).toBe(404);
  });

  it("refuses anything but a safe zip", async () => {
    expect((await importZip(alice, "backup.txt", Buffer.from("hello"))).msg).toBe("请上传zip文件");
    expect((await importZip(alice, "backup.zip", Buffer.from("not a zip at all"))).msg).toBe("请上传zip文件");
    const good = JSON.stringify({ schemaVersion: 1, exportedAt: "", ownerId: "x", versionNo: 1, agent: {} });

    const slip = new JSZip();
    slip.file("manifest.json", good);
    slip.file("../../etc/evil", "x");
    expect((await importZip(alice, "a.zip", await slip.generateAsync({ type: "nodebuffer" }))).msg).toContain("unsafe path");

    const link = new JSZip();
    link.file("manifest.json", good);
    link.file("icon.png", "/etc/passwd", { unixPermissions: 0o120777 });
    expect((await importZip(alice, "a.zip", await link.generateAsync({ type: "nodebuffer", platform: "UNIX" }))).msg).toContain(
      "symbolic link",
    );

    const many = new JSZip();
    for (let i = 0; i < 20; i++) many.file(`f${i}.txt`, "x");
    expect((await importZip(alice, "a.zip", await many.generateAsync({ type: "nodebuffer" }))).msg).toContain("more than");

    // A bomb: a small zip whose manifest inflates past the limit is stopped while inflating.
    const bomb = new JSZip();
    bomb.file("manifest.json", " ".repeat(5 * 1024 * 1024));
    const bombZip = await bomb.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
    expect(bombZip.length).toBeLessThan(1024 * 1024);
    expect((await importZip(alice, "a.zip", bombZip)).msg).toContain("too large");

    const wrong = new JSZip();
    wrong.file("manifest.json", good);
    expect((await importZip(alice, "a.zip", await wrong.generateAsync({ type: "nodebuffer" }))).msg).toContain("schema");

    // Entries other than the manifest are never inflated (a CRC check while loading inflated them all,
    // before any limit): one whose bytes do not match its CRC goes unnoticed.
    const extra = new JSZip();
    extra.file("manifest.json", good);
    extra.file("junk.txt", "JUNK".repeat(1024), { compression: "STORE" });
    const bytes = await extra.generateAsync({ type: "nodebuffer" });
    bytes[bytes.indexOf("JUNKJUNK") + 1] ^= 0xff;
    expect((await importZip(alice, "a.zip", bytes)).msg).toContain("schema");
  });
});

describe("an import is a studio edit", () => {
  const editsUsed = async (user: TestUser) =>
    (await t.app.inject({ url: "/agent_api/api/agentDeductFeeConfig/getUseEditNum", headers: user.headers })).json().data.useNum as number;
  const debug = (user: TestUser, id: string) =>
    t.app.inject({
      method: "POST",
      url: "/agent/agent_runtime/chat",
      payload: { token: user.token, schema_id: id, release: false, query: "调试" },
    });
  /** Alice's backup with another persona, as one edits manifest.json by hand. */
  async function editedBackup(persona: string) {
    const zip = await JSZip.loadAsync((await api(alice, "GET", `/agent/${released}/export`)).rawPayload);
    const m = JSON.parse(await zip.file("manifest.json")!.async("string"));
    m.agent.persona = persona;
    zip.file("manifest.json", JSON.stringify(m));
    return zip.generateAsync({ type: "nodebuffer" });
  }

  it("an edited backup imported, debugged and released counts one edit (it did not count at all)", async () => {
    const before = await editsUsed(alice);
    const imported = await importZip(alice, "backup.zip", await editedBackup("改过的人设"));
    expect(imported.code).toBe(200);
    const id = imported.data.agentId;
    expect(await editsUsed(alice)).toBe(before + 1);
    // The import opened the editing round: a save before the release is in it, not a second edit.
    const draft = (await api(alice, "GET", `/agent/draft/${id}`)).json().data;
    expect(draft.draft.persona).toBe("改过的人设");
    expect((await api(alice, "PUT", `/agent/draft/${id}`, { ...draft.draft, persona: "再改一次" })).statusCode).toBe(200);
    await debug(alice, id);
    expect((await api(alice, "POST", `/agent/release/${id}`, { notes: "" })).statusCode).toBe(200);
    expect(await editsUsed(alice)).toBe(before + 1);
  });

  it("is charged like a save past the allowance, and a refused charge leaves no agent behind", async () => {
    // A level whose edits are all charged: 0.50 each.
    await t.platform.db
      .insert(planTemplates)
      .values({ category: "PERSONAL", memberLevel: "MONTHLY", name: "月度会员", monthlyCents: 1000, editCount: 0, feeCents: 50 });
    const dave = await createUser(t, { memberLevel: "MONTHLY", balanceCents: 20 });
    const owned = async () => (await t.platform.db.select().from(agents).where(eq(agents.ownerId, dave.id))).length;
    const balance = async () => (await t.platform.db.select().from(users).where(eq(users.id, dave.id)))[0].balanceCents;
    const data = await editedBackup("付费导入");

    const refused = await importZip(dave, "backup.zip", data);
    expect(refused).toMatchObject({ status: 400, msg: "账户余额不足，请先充值" });
    expect(await owned()).toBe(0);
    expect(await editsUsed(dave)).toBe(0);
    expect(await balance()).toBe(20);

    await t.platform.db.update(users).set({ balanceCents: 120 }).where(eq(users.id, dave.id));
    const paid = await importZip(dave, "backup.zip", data);
    expect(paid.code).toBe(200);
    expect(await owned()).toBe(1);
    expect(await editsUsed(dave)).toBe(1);
    expect(await balance()).toBe(70);
  });
});
