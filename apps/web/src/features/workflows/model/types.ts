import { type CONDITION_OPERATORS, NODE_TYPES, type NodeType, type VariableType, type WorkflowGraph } from "@agentfair/contracts";

export { ELSE_HANDLE, VARIABLE_TYPES as VAR_TYPES } from "@agentfair/contracts";
export type { NodeType };
export type VarType = VariableType;

/** The node types the canvas's palette offers, in its order: all but start (a graph has exactly one). */
export const PALETTE: NodeType[] = NODE_TYPES.filter((t) => t !== "start");
/** Node types whose body (the nodes with their id as parentId) is a sub-flow drawn inside them. */
export const LOOP_TYPES: ReadonlySet<NodeType> = new Set(["loop", "iteration"]);
/** Types that cannot sit in a loop's body (the server refuses them there). */
export const TOP_ONLY: ReadonlySet<NodeType> = new Set(["start", "end", "human"]);

export interface StartInput {
  name: string;
  type: VarType;
  required?: boolean;
}
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
export interface ConditionRule {
  variable: string;
  operator: ConditionOperator;
  value: string;
}
export interface ConditionCase {
  /** The source handle of the case's edge. */
  id: string;
  logic: "and" | "or";
  conditions: ConditionRule[];
}
export interface KeyValue {
  name: string;
  value: string;
}
export interface CodeOutput {
  name: string;
  type: VarType;
}
export interface ClassifierClass {
  id: string;
  name: string;
}
export interface ExtractorParam {
  name: string;
  type: VarType;
  description: string;
  required: boolean;
}
export interface Assignment {
  name: string;
  type: VarType;
  value: string;
}
export interface HumanField {
  name: string;
  type: VarType;
  label: string;
  required: boolean;
}

export type NodeData = Record<string, unknown> & { title?: string };

/** A node as the canvas holds it (the wire node plus what React Flow measures and selects). */
export interface WfNode {
  id: string;
  type: NodeType;
  position: { x: number; y: number };
  data: NodeData;
  /** A loop's or iteration's body node: that node's id (its position is relative to it). */
  parentId?: string;
  selected?: boolean;
  measured?: { width?: number; height?: number };
}
export interface WfEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
  selected?: boolean;
}

export type WireGraph = WorkflowGraph;
