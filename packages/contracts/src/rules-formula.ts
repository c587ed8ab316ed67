/**
 * The rule formula language (doc 2 §2 "Rules editor dialog"): spreadsheet-style functions, comparison
 * and arithmetic over named parameters. One lexer and one Pratt parser, shared by the server (which
 * evaluates the tree) and the web editor (which highlights tokens and shows syntax errors inline).
 * Nothing here ever reaches JavaScript's eval or Function: the tree is walked by the server's evaluator.
 */

/** Longest expression accepted (a 1 MB expression is refused before it is read). */
export const FORMULA_MAX_LENGTH = 10_000;
/** Deepest nesting of parentheses, calls and operators. */
export const FORMULA_MAX_DEPTH = 48;
export const FORMULA_MAX_TOKENS = 3_000;

export type TokenType = "number" | "string" | "boolean" | "name" | "function" | "operator" | "paren" | "comma" | "space" | "error";
export interface Token {
  type: TokenType;
  text: string;
  start: number;
  end: number;
}

export type FormulaNode =
  | { kind: "number"; value: number; start: number; end: number }
  | { kind: "string"; value: string; start: number; end: number }
  | { kind: "boolean"; value: boolean; start: number; end: number }
  | { kind: "name"; name: string; start: number; end: number }
  | { kind: "unary"; op: "-" | "+" | "!"; arg: FormulaNode; start: number; end: number }
  | { kind: "binary"; op: BinaryOp; left: FormulaNode; right: FormulaNode; start: number; end: number }
  | { kind: "call"; name: string; args: FormulaNode[]; start: number; end: number };

export type BinaryOp = "+" | "-" | "*" | "/" | "^" | "&" | "=" | "<>" | "<" | ">" | "<=" | ">=" | "&&" | "||";

/** A syntax error with the place it was found (character offsets into the expression). */
export class FormulaError extends Error {
  constructor(
    /** Catalogue-style code, so both sides can translate it. */
    readonly code: FormulaErrorCode,
    readonly start: number,
    readonly end: number,
    readonly detail = "",
  ) {
    super(`${code}${detail ? `: ${detail}` : ""} @${start}`);
  }
}
export type FormulaErrorCode =
  | "empty"
  | "tooLong"
  | "tooDeep"
  | "tooManyTokens"
  | "unexpectedChar"
  | "unterminatedString"
  | "unexpectedToken"
  | "unexpectedEnd"
  | "badNumber"
  | "unknownFunction"
  | "unknownName"
  | "argCount"
  | "type"
  | "range"
  | "divZero";

/** zh and en texts of the formula errors, for the server's replies and the editor's inline marks. */
export const FORMULA_ERROR_TEXTS: Record<FormulaErrorCode, { zh: string; en: string }> = {
  empty: { zh: "表达式不能为空", en: "the expression is empty" },
  tooLong: { zh: `表达式不能超过${FORMULA_MAX_LENGTH}个字符`, en: `the expression may be at most ${FORMULA_MAX_LENGTH} characters` },
  tooDeep: { zh: `表达式嵌套不能超过${FORMULA_MAX_DEPTH}层`, en: `the expression may nest at most ${FORMULA_MAX_DEPTH} levels` },
  tooManyTokens: { zh: "表达式过长", en: "the expression has too many parts" },
  unexpectedChar: { zh: "无法识别的字符", en: "unexpected character" },
  unterminatedString: { zh: "字符串缺少结束引号", en: "the string has no closing quote" },
  unexpectedToken: { zh: "此处不应出现该内容", en: "unexpected token" },
  unexpectedEnd: { zh: "表达式不完整", en: "the expression ends too early" },
  badNumber: { zh: "数字无效或超出范围", en: "invalid or out-of-range number" },
  unknownFunction: { zh: "未知函数", en: "unknown function" },
  unknownName: { zh: "未定义的参数", en: "undefined parameter" },
  argCount: { zh: "函数参数个数不正确", en: "wrong number of arguments" },
  type: { zh: "参数类型不正确", en: "wrong argument type" },
  range: { zh: "计算结果超出范围", en: "the result is out of range" },
  divZero: { zh: "除数不能为0", en: "division by zero" },
};

export function formulaErrorText(e: FormulaError, lang: "zh" | "en") {
  const base = FORMULA_ERROR_TEXTS[e.code][lang];
  const where = lang === "zh" ? `（第${e.start + 1}个字符）` : ` (at character ${e.start + 1})`;
  return `${base}${e.detail ? `${lang === "zh" ? "：" : ": "}${e.detail}` : ""}${where}`;
}

const NAME_START = /[A-Za-z_\u4e00-\u9fff]/;
const NAME_PART = /[A-Za-z0-9_\u4e00-\u9fff]/;
const OPERATORS = ["<>", "<=", ">=", "!=", "==", "&&", "||", "+", "-", "*", "/", "^", "&", "=", "<", ">", "!"];

/**
 * Splits an expression into tokens. With `lenient` (the editor's highlighter) a bad character
 * becomes an error token instead of throwing, so everything typed is still shown.
 */
export function tokenize(src: string, lenient = false): Token[] {
  if (src.length > FORMULA_MAX_LENGTH && !lenient) throw new FormulaError("tooLong", 0, 0);
  const out: Token[] = [];
  let i = 0;
  const push = (type: TokenType, start: number, end: number) => out.push({ type, text: src.slice(start, end), start, end });
  while (i < src.length) {
    const c = src[i];
    const start = i;
    if (/\s/.test(c)) {
      while (i < src.length && /\s/.test(src[i])) i++;
      push("space", start, i);
      continue;
    }
    if (/[0-9.]/.test(c)) {
      while (i < src.length && /[0-9.]/.test(src[i])) i++;
      if (/[eE]/.test(src[i] ?? "") && /[0-9+-]/.test(src[i + 1] ?? "")) {
        i += 2;
        while (i < src.length && /[0-9]/.test(src[i])) i++;
      }
      push("number", start, i);
      continue;
    }
    if (c === '"' || c === "'") {
      i++;
      let closed = false;
      while (i < src.length) {
        if (src[i] === "\\") {
          i += 2;
          continue;
        }
        if (src[i] === c) {
          if (src[i + 1] === c) {
            i += 2;
            continue;
          }
          i++;
          closed = true;
          break;
        }
        i++;
      }
      if (!closed) {
        if (!lenient) throw new FormulaError("unterminatedString", start, src.length);
        push("error", start, src.length);
        i = src.length;
        continue;
      }
      push("string", start, i);
      continue;
    }
    if (NAME_START.test(c)) {
      while (i < src.length && NAME_PART.test(src[i])) i++;
      const text = src.slice(start, i);
      let j = i;
      while (j < src.length && /\s/.test(src[j])) j++;
      if (/^(true|false)$/i.test(text)) push("boolean", start, i);
      else push(src[j] === "(" ? "function" : "name", start, i);
      continue;
    }
    if (c === "(" || c === ")") {
      i++;
      push("paren", start, i);
      continue;
    }
    if (c === "," || c === "，") {
      i++;
      push("comma", start, i);
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      i += op.length;
      push("operator", start, i);
      continue;
    }
    if (!lenient) throw new FormulaError("unexpectedChar", start, start + 1, c);
    i++;
    push("error", start, i);
  }
  if (!lenient && out.length > FORMULA_MAX_TOKENS) throw new FormulaError("tooManyTokens", 0, src.length);
  return out;
}

const BINARY: Record<string, { op: BinaryOp; prec: number; right?: boolean }> = {
  "||": { op: "||", prec: 1 },
  "&&": { op: "&&", prec: 2 },
  "=": { op: "=", prec: 3 },
  "==": { op: "=", prec: 3 },
  "<>": { op: "<>", prec: 3 },
  "!=": { op: "<>", prec: 3 },
  "<": { op: "<", prec: 3 },
  ">": { op: ">", prec: 3 },
  "<=": { op: "<=", prec: 3 },
  ">=": { op: ">=", prec: 3 },
  "&": { op: "&", prec: 4 },
  "+": { op: "+", prec: 5 },
  "-": { op: "-", prec: 5 },
  "*": { op: "*", prec: 6 },
  "/": { op: "/", prec: 6 },
  "^": { op: "^", prec: 8, right: true },
};
const UNARY_PREC = 7;

function unquote(text: string) {
  const q = text[0];
  const body = text.slice(1, -1);
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\" && i + 1 < body.length) {
      const n = body[++i];
      out += n === "n" ? "\n" : n === "t" ? "\t" : n;
    } else if (c === q && body[i + 1] === q) {
      out += q;
      i++;
    } else out += c;
  }
  return out;
}

/** Parses an expression into its tree; throws FormulaError with the place of the first problem. */
export function parseFormula(src: string): FormulaNode {
  if (src.length > FORMULA_MAX_LENGTH) throw new FormulaError("tooLong", 0, 0);
  const tokens = tokenize(src).filter((t) => t.type !== "space");
  if (!tokens.length) throw new FormulaError("empty", 0, 0);
  let pos = 0;
  const peek = () => tokens[pos];
  const endErr = () => new FormulaError("unexpectedEnd", src.length, src.length);
  const expect = (text: string) => {
    const t = tokens[pos];
    if (!t) throw endErr();
    if (t.text !== text && !(text === "," && t.type === "comma")) throw new FormulaError("unexpectedToken", t.start, t.end, t.text);
    pos++;
    return t;
  };

  function primary(depth: number): FormulaNode {
    if (depth > FORMULA_MAX_DEPTH) throw new FormulaError("tooDeep", peek()?.start ?? src.length, src.length);
    const t = tokens[pos++];
    if (!t) throw endErr();
    switch (t.type) {
      case "number": {
        const value = Number(t.text);
        if (!/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t.text) || !Number.isFinite(value))
          throw new FormulaError("badNumber", t.start, t.end, t.text);
        return { kind: "number", value, start: t.start, end: t.end };
      }
      case "string":
        return { kind: "string", value: unquote(t.text), start: t.start, end: t.end };
      case "boolean":
        return { kind: "boolean", value: t.text.toLowerCase() === "true", start: t.start, end: t.end };
      case "name":
        return { kind: "name", name: t.text, start: t.start, end: t.end };
      case "function": {
        expect("(");
        const args: FormulaNode[] = [];
        if (peek()?.text !== ")") {
          for (;;) {
            args.push(expression(0, depth + 1));
            if (peek()?.type === "comma") {
              pos++;
              continue;
            }
            break;
          }
        }
        const close = expect(")");
        return { kind: "call", name: t.text.toUpperCase(), args, start: t.start, end: close.end };
      }
      case "paren":
        if (t.text === "(") {
          const inner = expression(0, depth + 1);
          expect(")");
          return inner;
        }
        throw new FormulaError("unexpectedToken", t.start, t.end, t.text);
      case "operator":
        if (t.text === "-" || t.text === "+" || t.text === "!") {
          const arg = expression(UNARY_PREC, depth + 1);
          return { kind: "unary", op: t.text, arg, start: t.start, end: arg.end };
        }
        throw new FormulaError("unexpectedToken", t.start, t.end, t.text);
      default:
        throw new FormulaError("unexpectedToken", t.start, t.end, t.text);
    }
  }

  function expression(minPrec: number, depth: number): FormulaNode {
    if (depth > FORMULA_MAX_DEPTH) throw new FormulaError("tooDeep", peek()?.start ?? src.length, src.length);
    let left = primary(depth);
    for (;;) {
      const t = peek();
      if (t?.type !== "operator") break;
      const info = BINARY[t.text];
      if (!info || info.prec < minPrec) break;
      pos++;
      const right = expression(info.right ? info.prec : info.prec + 1, depth + 1);
      left = { kind: "binary", op: info.op, left, right, start: left.start, end: right.end };
    }
    return left;
  }

  const tree = expression(0, 0);
  const rest = tokens[pos];
  if (rest) throw new FormulaError("unexpectedToken", rest.start, rest.end, rest.text);
  return tree;
}

/** Parameter and function names the tree uses, for checks before a rule is saved. */
export function namesIn(node: FormulaNode, out = { params: new Set<string>(), functions: new Set<string>() }) {
  if (node.kind === "name") out.params.add(node.name);
  else if (node.kind === "unary") namesIn(node.arg, out);
  else if (node.kind === "binary") {
    namesIn(node.left, out);
    namesIn(node.right, out);
  } else if (node.kind === "call") {
    out.functions.add(node.name);
    for (const a of node.args) namesIn(a, out);
  }
  return out;
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** The expression written back from its tree in one canonical layout (the rule's showExpression). */
export function formatFormula(node: FormulaNode): string {
  switch (node.kind) {
    case "number":
      return String(node.value);
    case "string":
      return quote(node.value);
    case "boolean":
      return node.value ? "TRUE" : "FALSE";
    case "name":
      return node.name;
    case "unary":
      return `${node.op}${wrap(node.arg, UNARY_PREC)}`;
    case "binary": {
      const p = BINARY[node.op].prec;
      return `${wrap(node.left, p)} ${node.op} ${wrap(node.right, p + 1)}`;
    }
    case "call":
      return `${node.name}(${node.args.map(formatFormula).join(", ")})`;
  }
}
function wrap(node: FormulaNode, prec: number) {
  const text = formatFormula(node);
  const own = node.kind === "binary" ? BINARY[node.op].prec : node.kind === "unary" ? UNARY_PREC : 99;
  return own < prec ? `(${text})` : text;
}

const CN_OPS: Record<BinaryOp, string> = {
  "+": "加",
  "-": "减",
  "*": "乘以",
  "/": "除以",
  "^": "的乘方",
  "&": "连接",
  "=": "等于",
  "<>": "不等于",
  "<": "小于",
  ">": "大于",
  "<=": "小于等于",
  ">=": "大于等于",
  "&&": "并且",
  "||": "或者",
};

/**
 * The Chinese reading of an expression (the rule's expressionCn), written from its tree.
 * `functionNames` gives each function's Chinese name; `paramLabels` a parameter's description.
 */
export function readFormulaCn(
  node: FormulaNode,
  functionNames: Record<string, string> = {},
  paramLabels: Record<string, string> = {},
): string {
  const r = (n: FormulaNode) => readFormulaCn(n, functionNames, paramLabels);
  const group = (n: FormulaNode) => (n.kind === "binary" ? `（${r(n)}）` : r(n));
  switch (node.kind) {
    case "number":
      return String(node.value);
    case "string":
      return `“${node.value}”`;
    case "boolean":
      return node.value ? "真" : "假";
    case "name":
      return Object.hasOwn(paramLabels, node.name) && paramLabels[node.name] ? `【${paramLabels[node.name]}】` : `【${node.name}】`;
    case "unary":
      return node.op === "-" ? `负${group(node.arg)}` : node.op === "!" ? `非${group(node.arg)}` : r(node.arg);
    case "binary":
      if (node.op === "^") return `${group(node.left)}的${group(node.right)}次方`;
      return `${group(node.left)}${CN_OPS[node.op]}${group(node.right)}`;
    case "call": {
      const a = node.args;
      if (node.name === "IF" && a.length >= 2) return `如果${r(a[0])}，则${r(a[1])}${a[2] ? `，否则${r(a[2])}` : ""}`;
      if (node.name === "AND" && a.length) return a.map(r).join("并且");
      if (node.name === "OR" && a.length) return a.map(r).join("或者");
      if (node.name === "NOT" && a.length === 1) return `非${group(a[0])}`;
      const cn = Object.hasOwn(functionNames, node.name) ? functionNames[node.name] : node.name;
      return `${cn}（${a.map(r).join("，")}）`;
    }
  }
}
