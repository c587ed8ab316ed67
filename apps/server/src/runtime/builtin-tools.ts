import type { ToolKind } from "./tool-registry.ts";

/** Built-in tools every agent has: the current time and a calculator. */
export const builtinTools: ToolKind = {
  kind: "builtin",
  async toolsFor() {
    return [
      {
        name: "current_time",
        displayName: "当前时间",
        description: "Returns the current date and time (ISO 8601, UTC, and in the Asia/Shanghai time zone).",
        parameters: { type: "object", properties: {}, additionalProperties: false },
        async execute() {
          const now = new Date();
          const local = new Intl.DateTimeFormat("zh-CN", { timeZone: "Asia/Shanghai", dateStyle: "full", timeStyle: "medium" }).format(now);
          return { iso: now.toISOString(), shanghai: local };
        },
      },
      {
        name: "calculator",
        displayName: "计算器",
        description: "Evaluates an arithmetic expression with + - * / % ^ and parentheses, e.g. '(3 + 4) * 2'.",
        parameters: {
          type: "object",
          properties: { expression: { type: "string", description: "the arithmetic expression" } },
          required: ["expression"],
          additionalProperties: false,
        },
        async execute(args) {
          const expression = String((args as { expression?: unknown })?.expression ?? "");
          return { expression, result: evaluate(expression) };
        },
      },
    ];
  },
};

/** A small recursive-descent evaluator: numbers, + - * / % ^, unary minus, parentheses. No eval. */
export function evaluate(input: string): number {
  const src = input.replace(/\s+/g, "").replace(/×/g, "*").replace(/÷/g, "/");
  if (!src || src.length > 200) throw new Error("invalid expression");
  let pos = 0;
  const peek = () => src[pos];
  const expr = (): number => {
    let v = term();
    while (peek() === "+" || peek() === "-") v = src[pos++] === "+" ? v + term() : v - term();
    return v;
  };
  const term = (): number => {
    let v = power();
    while (peek() === "*" || peek() === "/" || peek() === "%") {
      const op = src[pos++];
      const r = power();
      v = op === "*" ? v * r : op === "/" ? v / r : v % r;
    }
    return v;
  };
  const power = (): number => {
    const base = unary();
    if (peek() === "^") {
      pos++;
      return base ** power();
    }
    return base;
  };
  const unary = (): number => {
    if (peek() === "-") {
      pos++;
      return -unary();
    }
    if (peek() === "+") {
      pos++;
      return unary();
    }
    return primary();
  };
  const primary = (): number => {
    if (peek() === "(") {
      pos++;
      const v = expr();
      if (src[pos++] !== ")") throw new Error("invalid expression");
      return v;
    }
    const m = src.slice(pos).match(/^\d+(\.\d+)?/);
    if (!m) throw new Error("invalid expression");
    pos += m[0].length;
    return Number(m[0]);
  };
  const value = expr();
  if (pos !== src.length || !Number.isFinite(value)) throw new Error("invalid expression");
  return Math.round(value * 1e10) / 1e10;
}
