import {
  type Assignment,
  type ClassifierClass,
  type CodeOutput,
  type ConditionCase,
  ELSE_HANDLE,
  type ExtractorParam,
  type HumanField,
  type NodeData,
  type NodeType,
  type StartInput,
  type WfNode,
} from "./types";

/** The data a new node of each type starts with: enough to run once its references are filled. */
export function defaultData(type: NodeType): NodeData {
  switch (type) {
    case "start":
      return { inputs: [{ name: "query", type: "string", required: true }] satisfies StartInput[] };
    case "end":
      return { outputs: {} };
    case "answer":
      return { text: "" };
    case "code":
      return {
        language: "javascript",
        code: "function main(params) {\n  return { result: params };\n}\n",
        params: {},
        outputs: [{ name: "result", type: "object" }] satisfies CodeOutput[],
      };
    case "llm":
      return { modelId: "", systemPrompt: "", prompt: "", jsonOutput: false };
    case "knowledge":
      return { knowledgeIds: [], query: "", topK: 5 };
    case "tool":
      return { pluginId: "", params: {} };
    case "http":
      return { method: "GET", url: "", headers: [], query: [], bodyType: "none", body: "" };
    case "condition":
      return {
        cases: [{ id: "case_1", logic: "and", conditions: [{ variable: "", operator: "equals", value: "" }] }] satisfies ConditionCase[],
      };
    case "template":
      return { template: "" };
    case "human":
      return { prompt: "", fields: [{ name: "answer", type: "string", label: "", required: true }] satisfies HumanField[] };
    case "agent":
      return { agentId: "", query: "" };
    case "classifier":
      return {
        modelId: "",
        query: "",
        instruction: "",
        classes: [
          { id: "class_1", name: "" },
          { id: "class_2", name: "" },
        ] satisfies ClassifierClass[],
      };
    case "extractor":
      return {
        modelId: "",
        query: "",
        instruction: "",
        parameters: [{ name: "param1", type: "string", description: "", required: false }] satisfies ExtractorParam[],
      };
    case "assign":
      return { assignments: [{ name: "var1", type: "string", value: "" }] satisfies Assignment[] };
    case "aggregate":
      return { variables: [], mode: "first" };
    case "list":
      return { input: "", operation: "first", key: "", order: "asc", start: 0, separator: "," };
    case "loop":
      return { maxIterations: 10, breakConditions: [], logic: "and", output: "" };
    case "iteration":
      return { items: "", parallelism: 1, output: "" };
    case "subworkflow":
      return { workflowId: "", inputs: {}, outputs: [] };
    default:
      return {};
  }
}

/**
 * The fields a code node returns, read from the object literal of its last `return {...}` (JavaScript)
 * or `return {'a': ...}` (Python), so later nodes can pick them.
 */
export function codeReturnFields(code: string): string[] {
  const at = Math.max(code.lastIndexOf("return {"), code.lastIndexOf("return{"));
  if (at < 0) return [];
  const body = code.slice(code.indexOf("{", at) + 1);
  const fields: string[] = [];
  let depth = 0;
  let token = "";
  for (const ch of body) {
    if (ch === "{" || ch === "[" || ch === "(") depth++;
    else if (ch === "}" || ch === "]" || ch === ")") {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && ch === ",") token = "";
    else if (depth === 0 && ch === ":") {
      const name = token.trim().replace(/^["']|["']$/g, "");
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) fields.push(name);
      token = "\u0000";
    } else if (token !== "\u0000") token += ch;
  }
  // `return { a, b }` shorthand
  if (!fields.length) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*(\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*,?\s*}/.exec(body);
    if (m) return m[1].split(",").map((x) => x.trim());
  }
  return [...new Set(fields)];
}

/** Fields a node's output offers to the nodes after it (`{{nodeId.field}}`), as the contract documents them. */
export function outputFields(node: Pick<WfNode, "type" | "data">): string[] {
  const d = node.data;
  switch (node.type) {
    case "start":
      return ((d.inputs as StartInput[] | undefined) ?? []).map((i) => i.name).filter(Boolean);
    case "code": {
      // Declared outputs are the contract; older drafts without them fall back to reading the code.
      const declared = d.outputs as CodeOutput[] | undefined;
      return declared ? declared.map((o) => o.name).filter(Boolean) : codeReturnFields(String(d.code ?? ""));
    }
    case "classifier":
      return ["classId", "className"];
    case "extractor":
      return ((d.parameters as ExtractorParam[] | undefined) ?? []).map((p) => p.name).filter(Boolean);
    case "assign":
      return ((d.assignments as Assignment[] | undefined) ?? []).map((a) => a.name).filter(Boolean);
    case "aggregate":
      return ["output"];
    case "list":
      return ["result"];
    case "loop":
      return ["results", "count"];
    case "iteration":
      return ["results"];
    case "llm":
      return d.jsonOutput ? ["text", "json"] : ["text"];
    case "knowledge":
      return ["result", "text"];
    case "tool":
      return ["result"];
    case "http":
      return ["status", "body", "json"];
    case "template":
      return ["output"];
    case "answer":
      return ["text"];
    case "human":
      return ((d.fields as HumanField[] | undefined) ?? []).map((f) => f.name).filter(Boolean);
    case "agent":
      return ["text"];
    case "condition":
      return ["case"];
    case "subworkflow":
      return ((d.outputs as string[] | undefined) ?? []).filter(Boolean);
    default:
      return [];
  }
}

/** What a sub-workflow node offers: the outputs of the released graph's top-level end nodes. */
export function releasedOutputs(graph: { nodes: { type: string; parentId?: string | null; data: Record<string, unknown> }[] } | null) {
  const names = (graph?.nodes ?? [])
    .filter((n) => n.type === "end" && !n.parentId)
    .flatMap((n) => Object.keys((n.data.outputs as Record<string, unknown> | undefined) ?? {}));
  return [...new Set(names)];
}

/** Inside a loop's body, the loop offers its pass's variables (not its final output). */
export function scopeFields(type: NodeType): string[] {
  return type === "loop" ? ["index", "last"] : type === "iteration" ? ["index", "item"] : [];
}

/** A condition node's out handles: each case, then else; a classifier's: each class. Other nodes have one unnamed handle. */
export function sourceHandles(node: Pick<WfNode, "type" | "data">): string[] | null {
  if (node.type === "classifier") return ((node.data.classes as ClassifierClass[] | undefined) ?? []).map((c) => c.id);
  if (node.type !== "condition") return null;
  return [...((node.data.cases as ConditionCase[] | undefined) ?? []).map((b) => b.id), ELSE_HANDLE];
}

/** A short id the variable syntax can hold (letters, digits, underscore): `code1`, `code2`. */
export function newNodeId(type: NodeType, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let i = 1; ; i++) {
    const id = `${type}${i}`;
    if (!used.has(id)) return id;
  }
}
