import http from "node:http";
import type { AddressInfo } from "node:net";
import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workflowNodeRuns, workflowRuns } from "../../db/schema/index.ts";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

/**
 * Attack: a released workflow whose iteration runs itself as a sub-workflow once per item made items^5 runs
 * from one start (4 items: 1,365 runs; 10 items would be 111,111), each with its own 1,000 steps and 10
 * minutes; and a sub-workflow node that timed out left its child running. Now a run and every sub-workflow
 * run under it share one step budget, and a child stops with the node that started it.
 */
let t: TestApp;
let user: TestUser;
let slow: http.Server;
let slowBase: string;
const MAX_STEPS = 40;
const P = "/aiagent_api";

beforeAll(async () => {
  slow = await new Promise<http.Server>((resolve) => {
    const s = http.createServer((_req, res) => {
      const timer = setTimeout(() => res.end("{}"), 5_000);
      res.on("close", () => clearTimeout(timer));
    });
    s.listen(0, "127.0.0.1", () => resolve(s));
  });
  const port = (slow.address() as AddressInfo).port;
  slowBase = `http://127.0.0.1:${port}`;
  t = await createTestApp({ WORKFLOW_MAX_STEPS: String(MAX_STEPS), NET_ALLOW_HOSTS: `127.0.0.1:${port}` });
  user = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
});
afterAll(async () => {
  await t?.close();
  slow?.closeAllConnections();
  slow?.close();
});

const call = async (method: "GET" | "POST" | "PUT", url: string, payload?: unknown) => {
  const res = await t.app.inject({ method, url: `${P}${url}`, headers: { ...user.headers, lang: "en" }, payload: payload as object });
  // biome-ignore lint/suspicious/noExplicitAny: test reads of many shapes
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: any } };
};

let n = 0;
async function released(graphOf: (id: string) => unknown) {
  n++;
  const created = await call("POST", "/workflow", {
    workflowName: `套娃${n}`,
    workflowDescription: "x",
    workflowCallableName: `nest_${n}`,
  });
  const id = created.body.data.id as string;
  const saved = await call("PUT", `/workflow/${id}/graph`, graphOf(id));
  expect(saved.body.code, saved.body.msg).toBe(200);
  expect((await call("POST", `/workflow/${id}/release`)).body.code).toBe(200);
  return id;
}

const runsOf = (id: string) => t.platform.db.select().from(workflowRuns).where(eq(workflowRuns.workflowId, id));

describe("sub-workflows", () => {
  it("share their parent's step budget: a workflow running itself per item stops at the limit", async () => {
    const id = await released((self) => ({
      nodes: [
        { id: "start", type: "start", data: { inputs: [{ name: "items", type: "array" }] } },
        { id: "it", type: "iteration", data: { items: "{{start.items}}", parallelism: 10 } },
        {
          id: "sub",
          type: "subworkflow",
          parentId: "it",
          data: { workflowId: self, inputs: { items: "{{start.items}}" }, onError: "default" },
        },
        { id: "end", type: "end", data: { outputs: {} } },
      ],
      edges: [
        { source: "start", target: "it" },
        { source: "it", target: "end" },
      ],
    }));
    const started = await call("POST", `/workflow/${id}/run`, { inputs: { items: [1, 2, 3, 4] }, version: "released" });
    expect(started.body.code, started.body.msg).toBe(200);
    const rootId = started.body.data.runId as string;
    await t.services.workflows.settled(rootId);
    const runs = await runsOf(id);
    const [{ steps }] = await t.platform.db
      .select({ steps: count() })
      .from(workflowNodeRuns)
      .where(
        inArray(
          workflowNodeRuns.runId,
          runs.map((r) => r.id),
        ),
      );
    // Before: 1,365 runs and about 4,000 node rows.
    expect(runs.length).toBeLessThanOrEqual(MAX_STEPS);
    expect(steps).toBeLessThanOrEqual(MAX_STEPS + runs.length);
    const root = runs.find((r) => r.id === rootId)!;
    expect(root.status).toBe("FAILED");
    expect(root.error).toMatch(/limit of 40 node steps/);
  }, 120_000);

  it("stop when the node that started them times out", async () => {
    const child = await released(() => ({
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "wait", type: "http", data: { url: `${slowBase}/slow`, timeoutMs: 60_000 } },
        { id: "end", type: "end", data: { outputs: {} } },
      ],
      edges: [
        { source: "start", target: "wait" },
        { source: "wait", target: "end" },
      ],
    }));
    const parent = await released(() => ({
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "sub", type: "subworkflow", data: { workflowId: child, inputs: {}, timeoutMs: 300 } },
        { id: "end", type: "end", data: { outputs: {} } },
      ],
      edges: [
        { source: "start", target: "sub" },
        { source: "sub", target: "end" },
      ],
    }));
    const started = await call("POST", `/workflow/${parent}/run`, { inputs: {}, version: "released" });
    const runId = started.body.data.runId as string;
    await t.services.workflows.settled(runId);
    expect((await call("GET", `/workflow/runs/${runId}`)).body.data).toMatchObject({ status: "FAILED", failedNodeId: "sub" });
    // Before: the child went on waiting for the slow server (RUNNING for 5 s, then SUCCEEDED).
    let childRun = (await runsOf(child))[0];
    for (let i = 0; i < 20 && childRun?.status === "RUNNING"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      childRun = (await runsOf(child))[0];
    }
    expect(childRun).toMatchObject({ status: "FAILED", error: "the run that started this sub-workflow stopped" });
  }, 60_000);
});
