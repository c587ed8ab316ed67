import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client.ts";
import { engineFixture, graphOf, type Step } from "./engine-fixture.ts";

let fx: Awaited<ReturnType<typeof engineFixture>>;
let fx2: Awaited<ReturnType<typeof engineFixture>>;
let fx3: Awaited<ReturnType<typeof engineFixture>>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Counts calls and the most steps running at once. */
const calls: Record<string, number> = {};
let active = 0;
let maxActive = 0;
const tracked =
  (name: string, ms: number, out: (ctx: Parameters<Step>[0]) => Record<string, unknown> = () => ({})): Step =>
  async (ctx) => {
    calls[name] = (calls[name] ?? 0) + 1;
    active++;
    maxActive = Math.max(maxActive, active);
    try {
      await sleep(ms);
      return out(ctx);
    } finally {
      active--;
    }
  };
let flaky = 0;
let broken = true;
const steps: Record<string, Step> = {
  one: tracked("one", 0, () => ({ v: 1 })),
  slow: tracked("slow", 60, (ctx) => ({ id: ctx.node.id })),
  verySlow: tracked("verySlow", 400),
  flaky: async () => {
    flaky++;
    if (flaky < 3) throw new Error(`flaky ${flaky}`);
    return { ok: true };
  },
  fails: async () => {
    throw new Error("always fails");
  },
  nul: async () => ({ text: "a\u0000b", list: ["\u0000"] }),
  nulFails: async () => {
    throw new Error("bad\u0000byte");
  },
  fixable: async () => {
    if (broken) throw new Error("not fixed yet");
    return { fixed: true };
  },
  item: tracked("item", 30, (ctx) => ({ double: Number((ctx.lookup("iter") as { item: number }).item) * 2 })),
  counter: tracked("counter", 0, (ctx) => ({ n: Number((ctx.lookup("loop") as { index: number }).index) + 1 })),
};
const code = (name: string, extra: Record<string, unknown> = {}) => ({ type: "code", data: { code: name, ...extra } });
const reset = () => {
  for (const k of Object.keys(calls)) delete calls[k];
  active = 0;
  maxActive = 0;
};

async function runToEnd(graph: ReturnType<typeof graphOf>, inputs: Record<string, unknown> = {}, f = fx) {
  const run = await f.newRun(graph, inputs);
  expect(await f.engine.execute(run.id)).toBe(true);
  return { run: await f.repo.run(run.id), nodes: await f.nodes(run.id) };
}

/**
 * The engine's cases, on the database of the file that calls this (the route tests' app), so the
 * workflows tests boot one database between them.
 */
export function engineCases(db: () => Db) {
  describe("workflow engine", () => {
    beforeAll(async () => {
      fx = await engineFixture(db(), steps, { concurrency: 3 });
      fx2 = await engineFixture(db(), steps, { concurrency: 3, maxSteps: 4 });
      fx3 = await engineFixture(db(), steps, { concurrency: 3, maxRunMs: 300 });
    });

    it("runs nodes in order, passing outputs by reference, and records each node as it happens", async () => {
      reset();
      const { run, nodes } = await runToEnd(
        graphOf(
          {
            start: { type: "start", data: { inputs: [{ name: "name", type: "string" }] } },
            a: code("one"),
            t: { type: "template", data: { template: "hi {{start.name}} {{a.v}}" } },
            end: { type: "end", data: { outputs: { text: "{{t.output}}", v: "{{a.v}}" } } },
          },
          ["start>a", "a>t", "t>end"],
        ),
        { name: "李" },
      );
      expect(run).toMatchObject({ status: "SUCCEEDED", outputs: { text: "hi 李 1", v: 1 } });
      const order = Object.values(nodes)
        .sort((x, y) => x.seq - y.seq)
        .map((r) => r.nodeId);
      expect(order).toEqual(["start", "a", "t", "end"]);
      for (const r of Object.values(nodes)) expect(r.finishedAt && r.startedAt && r.finishedAt >= r.startedAt).toBe(true);
    });

    it("keeps a node's output and error without U+0000, which jsonb cannot hold (an HTTP body or a script may send one)", async () => {
      const { run, nodes } = await runToEnd(
        graphOf(
          {
            start: { type: "start" },
            a: code("nul"),
            b: code("nulFails", { onError: "default", defaultOutput: {} }),
            end: { type: "end", data: { outputs: { text: "{{a.text}}" } } },
          },
          ["start>a", "a>b", "b>end"],
        ),
      );
      expect(run).toMatchObject({ status: "SUCCEEDED", outputs: { text: "ab" } });
      expect(nodes.a).toMatchObject({ status: "SUCCEEDED", output: { text: "ab", list: [""] } });
      expect(nodes.b).toMatchObject({ status: "FAILED", error: "badbyte" });
    });

    it("runs parallel branches at once (bounded) and joins them", async () => {
      reset();
      const { run, nodes } = await runToEnd(
        graphOf(
          {
            start: { type: "start" },
            b1: code("slow"),
            b2: code("slow"),
            b3: code("slow"),
            b4: code("slow"),
            join: { type: "aggregate", data: { variables: ["{{b1.id}}", "{{b2.id}}", "{{b3.id}}", "{{b4.id}}"], mode: "array" } },
            end: { type: "end", data: { outputs: { all: "{{join.output}}" } } },
          },
          ["start>b1", "start>b2", "start>b3", "start>b4", "b1>join", "b2>join", "b3>join", "b4>join", "join>end"],
        ),
      );
      expect(run?.outputs).toEqual({ all: ["b1", "b2", "b3", "b4"] });
      expect(maxActive).toBe(3);
      const joinStart = nodes.join.startedAt?.getTime() ?? 0;
      for (const b of ["b1", "b2", "b3", "b4"]) expect(nodes[b].finishedAt?.getTime()).toBeLessThanOrEqual(joinStart);
    });

    it("follows if / else-if / else and skips the branches not taken", async () => {
      const graph = () =>
        graphOf(
          {
            start: { type: "start", data: { inputs: [{ name: "x", type: "number" }] } },
            c: {
              type: "condition",
              data: {
                cases: [
                  { id: "big", conditions: [{ variable: "{{start.x}}", operator: "gt", value: "10" }] },
                  { id: "mid", conditions: [{ variable: "{{start.x}}", operator: "gt", value: "5" }] },
                ],
              },
            },
            big: { type: "template", data: { template: "big" } },
            mid: { type: "template", data: { template: "mid" } },
            small: { type: "template", data: { template: "small" } },
            agg: { type: "aggregate", data: { variables: ["{{big.output}}", "{{mid.output}}", "{{small.output}}"] } },
            end: { type: "end", data: { outputs: { r: "{{agg.output}}" } } },
          },
          ["start>c", "c>big:big", "c>mid:mid", "c>small:else", "big>agg", "mid>agg", "small>agg", "agg>end"],
        );
      expect((await runToEnd(graph(), { x: 20 })).run?.outputs).toEqual({ r: "big" });
      const mid = await runToEnd(graph(), { x: 7 });
      expect(mid.run?.outputs).toEqual({ r: "mid" });
      expect(mid.nodes.big.status).toBe("SKIPPED");
      expect((await runToEnd(graph(), { x: 1 })).run?.outputs).toEqual({ r: "small" });
    });

    it("assigns typed variables and runs list operations", async () => {
      const { run } = await runToEnd(
        graphOf(
          {
            start: { type: "start" },
            vars: {
              type: "assign",
              data: {
                assignments: [
                  { name: "items", type: "array", value: '[{"n":"b","s":3},{"n":"a","s":1},{"n":"c","s":2},{"n":"a","s":1}]' },
                  { name: "limit", type: "number", value: "2" },
                ],
              },
            },
            sorted: { type: "list", data: { input: "{{vars.items}}", operation: "sort", key: "s", order: "desc" } },
            high: {
              type: "list",
              data: {
                input: "{{sorted.result}}",
                operation: "filter",
                filter: { variable: "s", operator: "gte", value: "{{vars.limit}}" },
              },
            },
            names: { type: "list", data: { input: "{{high.result}}", operation: "join", separator: "," } },
            count: { type: "list", data: { input: "{{vars.items}}", operation: "length" } },
            end: { type: "end", data: { outputs: { top: "{{sorted.result.0.n}}", high: "{{high.result}}", count: "{{count.result}}" } } },
          },
          ["start>vars", "vars>sorted", "sorted>high", "high>names", "vars>count", "names>end", "count>end"],
        ),
      );
      expect(run?.outputs).toEqual({
        top: "b",
        high: [
          { n: "b", s: 3 },
          { n: "c", s: 2 },
        ],
        count: 4,
      });
    });

    it("iterates with and without parallelism, and loops until a break condition", async () => {
      const iter = (parallelism: number) =>
        graphOf(
          {
            start: { type: "start" },
            iter: { type: "iteration", data: { items: "[1,2,3,4,5,6]", parallelism, output: "{{body.double}}" } },
            body: { ...code("item"), parentId: "iter" },
            end: { type: "end", data: { outputs: { r: "{{iter.results}}" } } },
          },
          ["start>iter", "iter>end"],
        );
      reset();
      const serial = await runToEnd(iter(1));
      expect(serial.run?.outputs).toEqual({ r: [2, 4, 6, 8, 10, 12] });
      expect(maxActive).toBe(1);
      expect(serial.nodes["iter[3]/body"].status).toBe("SUCCEEDED");
      reset();
      const parallel = await runToEnd(iter(3));
      expect(parallel.run?.outputs).toEqual({ r: [2, 4, 6, 8, 10, 12] });
      expect(maxActive).toBe(3);

      const loop = await runToEnd(
        graphOf(
          {
            start: { type: "start" },
            loop: {
              type: "loop",
              data: {
                maxIterations: 50,
                output: "{{step.n}}",
                breakConditions: [{ variable: "{{loop.last}}", operator: "gte", value: "4" }],
              },
            },
            step: { ...code("counter"), parentId: "loop" },
            end: { type: "end", data: { outputs: { r: "{{loop.results}}", count: "{{loop.count}}" } } },
          },
          ["start>loop", "loop>end"],
        ),
      );
      expect(loop.run?.outputs).toEqual({ r: [1, 2, 3, 4], count: 4 });
    });

    it("retries with backoff, times out, takes fail branches and default values", async () => {
      flaky = 0;
      const retried = await runToEnd(
        graphOf(
          {
            start: { type: "start" },
            f: code("flaky", { retries: 2, retryBackoffMs: 5 }),
            end: { type: "end", data: { outputs: { ok: "{{f.ok}}" } } },
          },
          ["start>f", "f>end"],
        ),
      );
      expect(retried.run?.outputs).toEqual({ ok: true });
      expect(retried.nodes.f.attempts).toBe(3);

      const timedOut = await runToEnd(
        graphOf({ start: { type: "start" }, s: code("verySlow", { timeoutMs: 50 }), end: { type: "end" } }, ["start>s", "s>end"]),
      );
      expect(timedOut.run).toMatchObject({ status: "FAILED", failedNodeId: "s" });
      expect(timedOut.nodes.s.error).toMatch(/timed out/);

      const branched = await runToEnd(
        graphOf(
          {
            start: { type: "start" },
            f: code("fails", { onError: "branch" }),
            ok: { type: "template", data: { template: "fine" } },
            recover: { type: "template", data: { template: "recovered from {{f.error}}" } },
            agg: { type: "aggregate", data: { variables: ["{{ok.output}}", "{{recover.output}}"] } },
            end: { type: "end", data: { outputs: { r: "{{agg.output}}" } } },
          },
          ["start>f", "f>ok", "f>recover:fail", "ok>agg", "recover>agg", "agg>end"],
        ),
      );
      expect(branched.run?.outputs).toEqual({ r: "recovered from always fails" });
      expect(branched.nodes.ok.status).toBe("SKIPPED");
      expect(branched.nodes.f).toMatchObject({ status: "FAILED", handle: "fail" });

      const defaulted = await runToEnd(
        graphOf(
          {
            start: { type: "start" },
            f: code("fails", { onError: "default", defaultOutput: { v: 42 } }),
            end: { type: "end", data: { outputs: { v: "{{f.v}}" } } },
          },
          ["start>f", "f>end"],
        ),
      );
      expect(defaulted.run).toMatchObject({ status: "SUCCEEDED", outputs: { v: 42 } });
    });

    it("pauses at human input while other branches finish, and continues when answered", async () => {
      const run = await fx.newRun(
        graphOf(
          {
            start: { type: "start" },
            ask: { type: "human", data: { prompt: "name?", fields: [{ name: "name", type: "string" }] } },
            side: code("one"),
            end: { type: "end", data: { outputs: { name: "{{ask.name}}", v: "{{side.v}}" } } },
          },
          ["start>ask", "start>side", "ask>end", "side>end"],
        ),
      );
      await fx.engine.execute(run.id);
      const paused = await fx.repo.run(run.id);
      expect(paused).toMatchObject({ status: "PAUSED", waiting: { nodeId: "ask", prompt: "name?" } });
      expect((await fx.nodes(run.id)).side.status).toBe("SUCCEEDED");
      expect(await fx.repo.answerNodeRun(run.id, "ask", { name: "王" })).toBe(true);
      expect(await fx.repo.answerNodeRun(run.id, "ask", { name: "again" })).toBe(false);
      await fx.repo.updateRun(run.id, { status: "RUNNING", waiting: null });
      reset();
      await fx.engine.execute(run.id);
      expect(await fx.repo.run(run.id)).toMatchObject({ status: "SUCCEEDED", outputs: { name: "王", v: 1 } });
      expect(calls.one).toBeUndefined();
    });

    it("resumes a failed run from the failed node without running finished nodes again", async () => {
      reset();
      broken = true;
      const run = await fx.newRun(
        graphOf(
          { start: { type: "start" }, a: code("slow"), b: code("fixable"), end: { type: "end", data: { outputs: { f: "{{b.fixed}}" } } } },
          ["start>a", "a>b", "b>end"],
        ),
      );
      await fx.engine.execute(run.id);
      expect(await fx.repo.run(run.id)).toMatchObject({ status: "FAILED", failedNodeId: "b" });
      broken = false;
      await fx.repo.clearUnfinished(run.id);
      await fx.repo.updateRun(run.id, { status: "RUNNING", error: null });
      await fx.engine.execute(run.id);
      expect(await fx.repo.run(run.id)).toMatchObject({ status: "SUCCEEDED", outputs: { f: true } });
      expect(calls.slow).toBe(1);
    });

    it("enforces the step and time limits, and one process per run", async () => {
      const chain = graphOf(
        { start: { type: "start" }, a: code("one"), b: code("one"), c: code("one"), d: code("one"), end: { type: "end" } },
        ["start>a", "a>b", "b>c", "c>d", "d>end"],
      );
      const steps = await runToEnd(chain, {}, fx2);
      expect(steps.run?.status).toBe("FAILED");
      expect(steps.run?.error).toMatch(/limit of 4 node steps/);
      const slow = await runToEnd(
        graphOf({ start: { type: "start" }, s: code("verySlow"), end: { type: "end" } }, ["start>s", "s>end"]),
        {},
        fx3,
      );
      expect(slow.run?.status).toBe("FAILED");
      expect(slow.run?.error).toMatch(/time limit/);

      const run = await fx.newRun(chain);
      const [first, second] = await Promise.all([fx.engine.execute(run.id), fx2.engine.execute(run.id)]);
      expect([first, second].filter(Boolean)).toHaveLength(1);
    });

    it("writes nothing more once another process has taken the run over", async () => {
      reset();
      const run = await fx.newRun(
        graphOf({ start: { type: "start" }, s: code("verySlow"), t: code("one"), end: { type: "end" } }, ["start>s", "s>t", "t>end"]),
      );
      const executing = fx.engine.execute(run.id);
      await sleep(150);
      // What a takeover after a lapsed lease leaves: another owner on the run.
      await fx.repo.updateRun(run.id, { leaseOwner: "another-process", leaseUntil: new Date(Date.now() + 60_000) });
      expect(await executing).toBe(true);
      const nodes = await fx.nodes(run.id);
      expect(nodes.s?.status).not.toBe("SUCCEEDED");
      expect(nodes.t).toBeUndefined();
      expect(calls.one ?? 0).toBe(0);
      expect(await fx.repo.run(run.id)).toMatchObject({ status: "RUNNING", leaseOwner: "another-process" });
    });
  });
}
