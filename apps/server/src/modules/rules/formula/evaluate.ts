import { FormulaError, type FormulaNode, formatFormula, parseFormula, readFormulaCn } from "@agentfair/contracts/rules-formula";
import {
  checkNumber,
  checkText,
  type EvalContext,
  FUNCTION_CN,
  FUNCTIONS,
  looseEquals,
  MAX_LIST,
  MAX_TEXT,
  numeric,
  toBool,
  toNumber,
  toText,
  type Value,
} from "./functions.ts";

export type { Value } from "./functions.ts";
export const TRACE_MAX = 200;

export interface TraceStep {
  expression: string;
  value: Value;
}

export interface EvalResult {
  value: Value;
  trace: TraceStep[];
}

/** Every name a parameter may have: letters (also Chinese), digits, underscore. */
export const PARAM_NAME = /^[A-Za-z_\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]{0,63}$/;

/** Checks the function names and argument counts of a parsed tree (what "valid" means before running). */
export function checkTree(node: FormulaNode, knownParams?: ReadonlySet<string>) {
  switch (node.kind) {
    case "name":
      if (knownParams && !knownParams.has(node.name)) throw new FormulaError("unknownName", node.start, node.end, node.name);
      return;
    case "unary":
      return checkTree(node.arg, knownParams);
    case "binary":
      checkTree(node.left, knownParams);
      return checkTree(node.right, knownParams);
    case "call": {
      const fn = FUNCTIONS.get(node.name);
      if (!fn) throw new FormulaError("unknownFunction", node.start, node.end, node.name);
      if (node.args.length < fn.min || node.args.length > fn.max) throw new FormulaError("argCount", node.start, node.end, node.name);
      for (const a of node.args) checkTree(a, knownParams);
      return;
    }
    default:
      return;
  }
}

/** Parses and checks an expression: the tree plus its canonical text and Chinese reading. */
export function compile(expression: string, knownParams?: ReadonlySet<string>, paramLabels: Record<string, string> = {}) {
  const tree = parseFormula(expression);
  checkTree(tree, knownParams);
  return { tree, showExpression: formatFormula(tree), expressionCn: readFormulaCn(tree, FUNCTION_CN, paramLabels) };
}

/** Normalises an input value: numbers stay numbers, lists are capped, anything else becomes text. */
export function inputValue(v: unknown): Value {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "boolean") return v;
  if (typeof v === "string") return v.slice(0, MAX_TEXT);
  if (typeof v === "bigint") return Number(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.slice(0, MAX_LIST).map((x) => (Array.isArray(x) ? toText(x.map(inputValue)) : inputValue(x)));
  return JSON.stringify(v).slice(0, MAX_TEXT);
}

/**
 * Evaluates an expression with named inputs. Parameters are read from a Map, never from an object's
 * properties, so `constructor` or `__proto__` are just undefined names.
 */
export function evaluate(expression: string, params: ReadonlyMap<string, Value>, ctx: Partial<EvalContext> = {}): EvalResult {
  const tree = parseFormula(expression);
  checkTree(tree);
  return evaluateTree(expression, tree, params, ctx);
}

export function evaluateTree(
  source: string,
  tree: FormulaNode,
  params: ReadonlyMap<string, Value>,
  ctx: Partial<EvalContext> = {},
): EvalResult {
  const context: EvalContext = { now: ctx.now ?? new Date(), timeZone: ctx.timeZone ?? "Asia/Shanghai" };
  const trace: TraceStep[] = [];
  const record = (node: FormulaNode, value: Value) => {
    if (trace.length < TRACE_MAX) trace.push({ expression: source.slice(node.start, node.end), value });
    return value;
  };

  const ev = (node: FormulaNode): Value => {
    switch (node.kind) {
      case "number":
      case "string":
      case "boolean":
        return node.value;
      case "name": {
        if (!params.has(node.name)) throw new FormulaError("unknownName", node.start, node.end, node.name);
        return params.get(node.name) ?? null;
      }
      case "unary": {
        const v = ev(node.arg);
        if (node.op === "!") return !toBool(v, node);
        return node.op === "-" ? -toNumber(v, node) : toNumber(v, node);
      }
      case "binary":
        return record(node, binary(node, ev));
      case "call": {
        const fn = FUNCTIONS.get(node.name);
        if (!fn) throw new FormulaError("unknownFunction", node.start, node.end, node.name);
        if (node.args.length < fn.min || node.args.length > fn.max) throw new FormulaError("argCount", node.start, node.end, node.name);
        if (fn.lazy) return record(node, fn.lazy(node.args, ev, node));
        const args = node.args.map(ev);
        return record(node, (fn.call as NonNullable<typeof fn.call>)(args, node, context));
      }
    }
  };
  const value = ev(tree);
  return { value, trace };
}

function binary(node: Extract<FormulaNode, { kind: "binary" }>, ev: (n: FormulaNode) => Value): Value {
  if (node.op === "&&") return toBool(ev(node.left), node) && toBool(ev(node.right), node);
  if (node.op === "||") return toBool(ev(node.left), node) || toBool(ev(node.right), node);
  const a = ev(node.left);
  const b = ev(node.right);
  switch (node.op) {
    case "+":
      return checkNumber(toNumber(a, node) + toNumber(b, node), node);
    case "-":
      return checkNumber(toNumber(a, node) - toNumber(b, node), node);
    case "*":
      return checkNumber(toNumber(a, node) * toNumber(b, node), node);
    case "/": {
      const d = toNumber(b, node);
      if (d === 0) throw new FormulaError("divZero", node.start, node.end);
      return checkNumber(toNumber(a, node) / d, node);
    }
    case "^":
      return checkNumber(toNumber(a, node) ** toNumber(b, node), node);
    case "&":
      return checkText(toText(a) + toText(b), node);
    case "=":
      return looseEquals(a, b);
    case "<>":
      return !looseEquals(a, b);
    default: {
      const na = numeric(a);
      const nb = numeric(b);
      const cmp = na !== undefined && nb !== undefined ? na - nb : toText(a) < toText(b) ? -1 : toText(a) > toText(b) ? 1 : 0;
      if (node.op === "<") return cmp < 0;
      if (node.op === ">") return cmp > 0;
      if (node.op === "<=") return cmp <= 0;
      return cmp >= 0;
    }
  }
}

/** The function list the editor shows: from the evaluator's own table. */
export function functionList(lang: "zh" | "en") {
  return [...FUNCTIONS.values()].map((f) => ({ name: f.name, description: f.description[lang], example: f.example }));
}
