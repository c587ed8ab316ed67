import { describe, expect, it } from "vitest";
import i18n from "../../../i18n";
import {
  emptyGraph,
  freePosition,
  fromWire,
  type GraphState,
  graphReducer,
  missingSettings,
  START_UNDELETABLE,
  toWire,
  validateGraph,
  variablesFor,
} from "./graph";
import { releasedOutputs } from "./nodes";
import { ELSE_HANDLE } from "./types";

const start = (): GraphState => {
  const { nodes, edges } = fromWire(null);
  return graphReducer(emptyGraph(), { type: "load", nodes, edges });
};

describe("graph editing", () => {
  it("adds a node with fresh id and default data, connects it, and undo/redo walk the history", () => {
    let s = start();
    s = graphReducer(s, { type: "add", nodeType: "code", position: { x: 200, y: 80 } });
    expect(s.nodes.map((n) => n.id)).toEqual(["start", "end", "code1"]);
    expect(s.nodes[2].data.language).toBe("javascript");
    s = graphReducer(s, { type: "connect", source: "start", target: "code1" });
    s = graphReducer(s, { type: "connect", source: "code1", target: "end" });
    // a duplicate edge and a self loop are ignored
    expect(graphReducer(s, { type: "connect", source: "start", target: "code1" })).toBe(s);
    expect(graphReducer(s, { type: "connect", source: "end", target: "end" })).toBe(s);
    expect(s.edges).toHaveLength(2);

    s = graphReducer(s, { type: "undo" });
    expect(s.edges).toHaveLength(1);
    s = graphReducer(s, { type: "undo" });
    s = graphReducer(s, { type: "undo" });
    expect(s.nodes).toHaveLength(2);
    expect(graphReducer(s, { type: "undo" })).toBe(s);
    s = graphReducer(s, { type: "redo" });
    s = graphReducer(s, { type: "redo" });
    expect(s.nodes).toHaveLength(3);
    expect(s.edges).toHaveLength(1);
    // a new change drops what redo could bring back
    s = graphReducer(s, { type: "add", nodeType: "template", position: { x: 0, y: 0 } });
    expect(s.future).toHaveLength(0);
  });

  it("deletes a node with its edges but never the start node ('initial node cannot be deleted')", () => {
    let s = start();
    s = graphReducer(s, { type: "add", nodeType: "code", position: { x: 0, y: 0 } });
    s = graphReducer(s, { type: "connect", source: "start", target: "code1" });
    const refused = graphReducer(s, { type: "remove", nodeIds: ["start"], edgeIds: [s.edges[0].id] });
    expect(refused.nodes).toHaveLength(3);
    expect(refused.edges).toHaveLength(1);
    expect(refused.refused).toBe(START_UNDELETABLE);
    const mixed = graphReducer(s, { type: "remove", nodeIds: ["start", "code1"] });
    expect(mixed.nodes.map((n) => n.id)).toEqual(["start", "end"]);
    expect(mixed.edges).toHaveLength(0);
    expect(mixed.refused).toBe(START_UNDELETABLE);
    expect(graphReducer(mixed, { type: "undo" }).nodes).toHaveLength(3);
    expect(graphReducer(s, { type: "add", nodeType: "start", position: { x: 0, y: 0 } }).refused).toBe("workflows.editor.oneStart");
  });

  it("drops a condition branch's edges when the branch is removed", () => {
    let s = start();
    s = graphReducer(s, { type: "add", nodeType: "condition", position: { x: 0, y: 0 } });
    s = graphReducer(s, { type: "connect", source: "condition1", target: "end", sourceHandle: "case_1" });
    s = graphReducer(s, { type: "connect", source: "condition1", target: "end", sourceHandle: ELSE_HANDLE });
    expect(s.edges).toHaveLength(2);
    s = graphReducer(s, { type: "update", id: "condition1", data: { cases: [] } });
    expect(s.edges.map((e) => e.sourceHandle)).toEqual([ELSE_HANDLE]);
  });
});

describe("variable picker", () => {
  it("offers the outputs of upstream nodes only, start first", () => {
    let s = start();
    s = graphReducer(s, { type: "add", nodeType: "code", position: { x: 0, y: 0 } });
    s = graphReducer(s, { type: "add", nodeType: "template", position: { x: 0, y: 0 } });
    s = graphReducer(s, { type: "connect", source: "start", target: "code1" });
    s = graphReducer(s, { type: "connect", source: "code1", target: "template1" });
    s = graphReducer(s, { type: "connect", source: "template1", target: "end" });
    expect(variablesFor("template1", s.nodes, s.edges).map((v) => v.ref)).toEqual(["{{start.query}}", "{{code1.result}}"]);
    expect(variablesFor("end", s.nodes, s.edges).map((v) => v.ref)).toContain("{{template1.output}}");
    expect(variablesFor("code1", s.nodes, s.edges).map((v) => v.ref)).toEqual(["{{start.query}}"]);
    expect(variablesFor("start", s.nodes, s.edges)).toEqual([]);
  });

  it("marks references to nodes that are not upstream, duplicate input names and an unreachable end", () => {
    let s = start();
    s = graphReducer(s, { type: "add", nodeType: "template", position: { x: 0, y: 0 } });
    s = graphReducer(s, { type: "update", id: "template1", data: { template: "{{end.x}}" } });
    s = graphReducer(s, {
      type: "update",
      id: "start",
      data: {
        inputs: [
          { name: "a", type: "string" },
          { name: "a", type: "number" },
        ],
      },
    });
    const keys = validateGraph(s.nodes, s.edges).map((i) => `${i.nodeId}:${i.key}`);
    expect(keys).toEqual(expect.arrayContaining(["end:endUnreachable", "template1:badReference", "start:duplicateVariable"]));
  });

  it("round-trips through the wire shape with positions kept", () => {
    let s = start();
    s = graphReducer(s, { type: "connect", source: "start", target: "end" });
    const wire = toWire(s.nodes, s.edges);
    expect(wire.edges).toEqual([{ source: "start", target: "end" }]);
    expect(fromWire(wire).nodes[1].position).toEqual({ x: 480, y: 80 });
  });
});

describe("loops and iterations (sub-flows)", () => {
  const build = () => {
    let s = start();
    s = graphReducer(s, { type: "add", nodeType: "iteration", position: { x: 200, y: 0 } });
    s = graphReducer(s, { type: "connect", source: "start", target: "iteration1" });
    s = graphReducer(s, { type: "connect", source: "iteration1", target: "end" });
    s = graphReducer(s, { type: "add", nodeType: "code", position: { x: 24, y: 64 }, parentId: "iteration1" });
    s = graphReducer(s, { type: "add", nodeType: "template", position: { x: 260, y: 64 }, parentId: "iteration1" });
    s = graphReducer(s, { type: "connect", source: "code1", target: "template1" });
    s = graphReducer(s, { type: "update", id: "iteration1", data: { items: "{{start.query}}" } });
    s = graphReducer(s, { type: "update", id: "template1", data: { template: "{{iteration1.item}}" } });
    return s;
  };

  it("keeps body nodes in their loop, offers the loop's pass variables inside, and round-trips parentId", () => {
    let s = build();
    expect(s.nodes.find((n) => n.id === "code1")?.parentId).toBe("iteration1");
    // edges stay in one scope; start, end and human input stay out of loops
    const cross = graphReducer(s, { type: "connect", source: "code1", target: "end" });
    expect(cross.refused).toBe("workflows.editor.crossScope");
    expect(graphReducer(s, { type: "add", nodeType: "human", position: { x: 0, y: 0 }, parentId: "iteration1" }).refused).toBe(
      "workflows.editor.notInLoop",
    );
    const inside = variablesFor("template1", s.nodes, s.edges).map((v) => v.ref);
    expect(inside).toEqual(expect.arrayContaining(["{{start.query}}", "{{iteration1.item}}", "{{iteration1.index}}", "{{code1.result}}"]));
    expect(inside).not.toContain("{{iteration1.results}}");
    // the loop itself sees its body (for its per-pass output); nodes after it see its results
    expect(variablesFor("iteration1", s.nodes, s.edges).map((v) => v.ref)).toContain("{{template1.output}}");
    expect(variablesFor("end", s.nodes, s.edges).map((v) => v.ref)).toContain("{{iteration1.results}}");
    expect(validateGraph(s.nodes, s.edges)).toEqual([]);

    const wire = toWire(s.nodes, s.edges);
    expect(wire.nodes.find((n) => n.id === "template1")?.parentId).toBe("iteration1");
    // children listed before their parent come back after it (React Flow draws parents first)
    const back = fromWire({ nodes: [...wire.nodes].reverse(), edges: wire.edges });
    const order = back.nodes.map((n) => n.id);
    expect(order.indexOf("iteration1")).toBeLessThan(order.indexOf("code1"));

    s = graphReducer(s, { type: "remove", nodeIds: ["iteration1"] });
    expect(s.nodes.map((n) => n.id)).toEqual(["start", "end"]);
  });

  it("checks references against a code node's declared outputs", () => {
    let s = start();
    s = graphReducer(s, { type: "add", nodeType: "code", position: { x: 0, y: 0 } });
    s = graphReducer(s, { type: "connect", source: "start", target: "code1" });
    s = graphReducer(s, { type: "connect", source: "code1", target: "end" });
    expect(variablesFor("end", s.nodes, s.edges).map((v) => v.field)).toContain("result");
    s = graphReducer(s, { type: "update", id: "end", data: { outputs: { a: "{{code1.nope}}" } } });
    expect(validateGraph(s.nodes, s.edges).map((i) => i.key)).toContain("undeclaredOutput");
    s = graphReducer(s, { type: "update", id: "code1", data: { outputs: [{ name: "nope", type: "string" }] } });
    expect(validateGraph(s.nodes, s.edges)).toEqual([]);
  });
});

describe("sub-workflow outputs", () => {
  it("offers the released end-node outputs of the picked workflow to the nodes after it", () => {
    const released = {
      nodes: [
        { id: "start", type: "start", data: {} },
        { id: "end", type: "end", data: { outputs: { summary: "{{x.text}}", score: "{{y.n}}" } } },
        { id: "innerEnd", type: "end", parentId: "loop1", data: { outputs: { hidden: "" } } },
      ],
    };
    expect(releasedOutputs(released)).toEqual(["summary", "score"]);
    let s = start();
    s = graphReducer(s, { type: "add", nodeType: "subworkflow", position: { x: 200, y: 80 } });
    s = graphReducer(s, { type: "connect", source: "start", target: "subworkflow1" });
    s = graphReducer(s, { type: "connect", source: "subworkflow1", target: "end" });
    s = graphReducer(s, { type: "update", id: "subworkflow1", data: { workflowId: "w1", outputs: releasedOutputs(released) } });
    const refs = variablesFor("end", s.nodes, s.edges).map((v) => v.ref);
    expect(refs).toContain("{{subworkflow1.summary}}");
    expect(refs).toContain("{{subworkflow1.score}}");
  });
});

describe("required settings", () => {
  it("reports an empty condition variable and empty template, answer, HTTP and tool settings as issues", () => {
    let s = start();
    for (const nodeType of ["condition", "template", "answer", "http", "tool"] as const)
      s = graphReducer(s, { type: "add", nodeType, position: { x: 0, y: 0 } });
    s = graphReducer(s, { type: "connect", source: "start", target: "condition1" });
    for (const id of ["template1", "answer1", "http1", "tool1"])
      s = graphReducer(s, { type: "connect", source: "condition1", target: id, sourceHandle: "case_1" });
    s = graphReducer(s, { type: "connect", source: "template1", target: "end" });
    const keys = validateGraph(s.nodes, s.edges).map((i) => `${i.nodeId}:${i.key}:${i.values?.field ?? ""}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        "condition1:conditionVariable:",
        "template1:required:template",
        "answer1:required:answerText",
        "http1:required:url",
        "tool1:required:plugin",
      ]),
    );
    // filled in, they are gone
    s = graphReducer(s, {
      type: "update",
      id: "condition1",
      data: { cases: [{ id: "case_1", logic: "and", conditions: [{ variable: "{{start.query}}", operator: "isNotEmpty", value: "" }] }] },
    });
    s = graphReducer(s, { type: "update", id: "template1", data: { template: "hi" } });
    const after = validateGraph(s.nodes, s.edges).map((i) => `${i.nodeId}:${i.key}`);
    expect(after).not.toContain("condition1:conditionVariable");
    expect(after).not.toContain("template1:required");
  });

  it("names the missing setting by its form label, in the page's language", async () => {
    expect(missingSettings({ type: "knowledge", data: { knowledgeIds: [], query: "" } })).toEqual(["knowledgeBases", "query"]);
    expect(missingSettings({ type: "llm", data: { modelId: "", prompt: "写一首诗" } })).toEqual([]);
    expect(i18n.t("workflows.validation.required", { field: "template" })).toBe("请填写「模板」");
    await i18n.changeLanguage("en");
    expect(i18n.t("workflows.validation.required", { field: "url" })).toBe("Fill in “URL”");
    await i18n.changeLanguage("zh");
  });
});

describe("placing a new node", () => {
  it("moves a node off the start→end line and off other nodes, to the nearest free spot", () => {
    const s = graphReducer(start(), { type: "connect", source: "start", target: "end" });
    // start at (0,80), end at (480,80): the middle of the line between them is taken
    const p = freePosition({ x: 140, y: 60 }, s.nodes, s.edges);
    expect(p).not.toEqual({ x: 140, y: 60 });
    const overlaps = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.abs(a.x - b.x) < 200 && Math.abs(a.y - b.y) < 80;
    for (const n of s.nodes) expect(overlaps(p, n.position)).toBe(false);
    // two clicks in a row do not stack
    const s2 = graphReducer(s, { type: "add", nodeType: "code", position: p });
    const q = freePosition({ x: 140, y: 60 }, s2.nodes, s2.edges);
    for (const n of s2.nodes) expect(overlaps(q, n.position)).toBe(false);
    // a free spot is kept
    expect(freePosition({ x: 200, y: 600 }, s.nodes, s.edges)).toEqual({ x: 200, y: 600 });
  });
});
