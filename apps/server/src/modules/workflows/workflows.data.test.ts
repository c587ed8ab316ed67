import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

/**
 * Attack: node outputs had no size limit, and a run holds every node's output in memory and writes it. One
 * run of four template nodes, each 50 references to a 9,000-reference template of a 1 KB input (450 MB each),
 * took the server to 3.9 GB and was still writing after 73 s. Now a template's text stops at 4 million
 * characters and a run's node data (its sub-workflows' included) at 64 MB, counted before anything copies it.
 */
let t: TestApp;
let user: TestUser;
const P = "/aiagent_api";

beforeAll(async () => {
  t = await createTestApp({});
  user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
});
afterAll(async () => {
  await t?.close();
});

const call = async (method: "GET" | "POST" | "PUT", url: string, payload?: unknown) => {
  const res = await t.app.inject({ method, url: `${P}${url}`, headers: { ...user.headers, lang: "en" }, payload: payload as object });
  // biome-ignore lint/suspicious/noExplicitAny: test reads of many shapes
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: any } };
};

let n = 0;
async function run(nodes: unknown[], edges: unknown[], inputs: Record<string, unknown>) {
  n++;
  const created = await call("POST", "/workflow", {
    workflowName: `数据${n}`,
    workflowDescription: "x",
    workflowCallableName: `data_${n}`,
  });
  const id = created.body.data.id as string;
  const saved = await call("PUT", `/workflow/${id}/graph`, { nodes, edges });
  expect(saved.body.code, saved.body.msg).toBe(200);
  const started = await call("POST", `/workflow/${id}/run`, { inputs });
  expect(started.body.code, started.body.msg).toBe(200);
  await t.services.workflows.settled(started.body.data.runId);
  return (await call("GET", `/workflow/runs/${started.body.data.runId}`)).body.data;
}

const line = (...ids: string[]) => ids.slice(1).map((id, i) => ({ source: ids[i], target: id }));
const start = { id: "start", type: "start", data: { inputs: [{ name: "s", type: "string" }] } };
const end = { id: "end", type: "end", data: { outputs: {} } };

describe("workflow node data", () => {
  it("a template's text stops at 4 million characters", async () => {
    const r = await run(
      [start, { id: "t1", type: "template", data: { template: "{{start.s}}".repeat(9000) } }, end],
      line("start", "t1", "end"),
      { s: "x".repeat(1000) },
    );
    expect(r).toMatchObject({ status: "FAILED", failedNodeId: "t1" });
    expect(r.error).toBe("the text would be longer than 4,000,000 characters");
  });

  it("a list's join stops at 4 million characters", async () => {
    const r = await run(
      [
        { id: "start", type: "start", data: { inputs: [{ name: "list", type: "array" }] } },
        { id: "j", type: "list", data: { operation: "join", input: "{{start.list}}", separator: "-".repeat(100) } },
        end,
      ],
      line("start", "j", "end"),
      { list: Array(100_000).fill(0) },
    );
    expect(r).toMatchObject({ status: "FAILED", failedNodeId: "j", error: "the text would be longer than 4,000,000 characters" });
  });

  it("a run's node data stops at 64 MB, loop passes included", async () => {
    const r = await run(
      [
        start,
        { id: "lp", type: "loop", data: { maxIterations: 30 } },
        { id: "twice", type: "template", parentId: "lp", data: { template: "{{start.s}}{{start.s}}" } },
        end,
      ],
      line("start", "lp", "end"),
      { s: "x".repeat(1_500_000) },
    );
    expect(r).toMatchObject({ status: "FAILED", failedNodeId: "lp" });
    expect(r.error).toMatch(/run's data would exceed its limit of 64 MB/);
    // The passes before it were kept (about 3 MB each), the rest never ran.
    expect(r.nodes.filter((x: { id: string; status: string }) => x.id === "twice" && x.status === "SUCCEEDED").length).toBeLessThan(22);
  }, 120_000);

  it("a value that repeats another is counted as written out, not copied first", async () => {
    const refs = (id: string) => Array.from({ length: 200 }, () => `{{${id}}}`);
    const r = await run(
      [
        start,
        { id: "a1", type: "aggregate", data: { mode: "array", variables: refs("start.s") } },
        { id: "a2", type: "aggregate", data: { mode: "array", variables: refs("a1.output") } },
        { id: "a3", type: "aggregate", data: { mode: "array", variables: refs("a2.output") } },
        end,
      ],
      line("start", "a1", "a2", "a3", "end"),
      { s: "0123456789" },
    );
    // 200³ strings of 12 characters: 96 MB as JSON.
    expect(r).toMatchObject({ status: "FAILED", failedNodeId: "a3" });
    expect(r.error).toMatch(/limit of 64 MB/);
  }, 120_000);
});
