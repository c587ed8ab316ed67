import type { WorkflowRun } from "@agentfair/contracts";
import { describe, expect, it } from "vitest";
import { applyEvent, replyOf } from "./use-run";

const run: WorkflowRun = {
  id: "r1",
  workflowId: "w1",
  workflowName: "w",
  status: "RUNNING",
  version: "draft",
  inputs: {},
  outputs: null,
  error: null,
  failedNodeId: null,
  waiting: null,
  tokens: 0,
  startedAt: new Date(0).toISOString(),
  finishedAt: null,
  durationMs: null,
  nodes: [],
};

describe("the test-run panel's answer stream", () => {
  it("grows the answer node's text piece by piece, and the node's own event brings the whole", () => {
    let r = applyEvent(run, { type: "delta", nodeId: "say", scope: "", text: "答：" });
    r = applyEvent(r, { type: "delta", nodeId: "say", scope: "", text: "第一段" });
    expect(r?.nodes).toHaveLength(1);
    expect(r?.nodes[0]).toMatchObject({ id: "say", status: "RUNNING", output: { text: "答：第一段" } });
    expect(replyOf(r as WorkflowRun)).toBe("答：第一段");
    // An answer inside a loop's pass is no reply.
    r = applyEvent(r, { type: "delta", nodeId: "say", scope: "loop1[0]", text: "内部" });
    expect(replyOf(r as WorkflowRun)).toBe("答：第一段");
    const whole = { ...(r as WorkflowRun).nodes[0], status: "SUCCEEDED" as const, output: { text: "答：第一段第二段" } };
    r = applyEvent(r, { type: "node", node: whole });
    // A late piece changes nothing once the node has ended.
    r = applyEvent(r, { type: "delta", nodeId: "say", scope: "", text: "多余" });
    expect(replyOf(r as WorkflowRun)).toBe("答：第一段第二段");
  });
});
