import { FormulaError, type FormulaNode } from "@agentfair/contracts/rules-formula";

/** A value an expression computes: a parameter's list (an SQL field) is an array. */
export type Value = number | string | boolean | null | Value[];

/** Longest text a function may build: CONCAT of itself cannot grow memory without bound. */
export const MAX_TEXT = 100_000;
/** Longest list a parameter may hold. */
export const MAX_LIST = 10_000;

export interface EvalContext {
  now: Date;
  /** IANA zone TODAY and NOW read the date in. */
  timeZone: string;
}

export interface FunctionDef {
  name: string;
  /** The Chinese name used in the expression's Chinese reading. */
  cn: string;
  description: { zh: string; en: string };
  example: string;
  min: number;
  max: number;
  /** Strict functions get evaluated arguments; lazy ones (IF, IFERROR...) evaluate only what they need. */
  call?: (args: Value[], node: FormulaNode, ctx: EvalContext) => Value;
  lazy?: (args: FormulaNode[], evaluate: (n: FormulaNode) => Value, node: FormulaNode) => Value;
}

const typeError = (node: FormulaNode, detail: string) => new FormulaError("type", node.start, node.end, detail);
export const rangeError = (node: FormulaNode) => new FormulaError("range", node.start, node.end);

export function flatten(values: Value[]): Value[] {
  const out: Value[] = [];
  const walk = (v: Value) => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else out.push(v);
  };
  for (const v of values) walk(v);
  return out;
}

export function toNumber(v: Value, node: FormulaNode): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v === null) return 0;
  if (typeof v === "string") {
    const s = v.trim();
    if (s !== "" && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) {
      const n = Number(s);
      if (Number.isFinite(n)) return n;
    }
  }
  throw typeError(node, Array.isArray(v) ? "list" : JSON.stringify(v).slice(0, 40));
}

export function toText(v: Value): string {
  if (v === null) return "";
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (Array.isArray(v)) return flatten(v).map(toText).join(",");
  return String(v);
}

export function toBool(v: Value, node: FormulaNode): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (v === null) return false;
  if (typeof v === "string") {
    const s = v.trim().toLowerCase();
    if (s === "true" || s === "1" || s === "是") return true;
    if (s === "false" || s === "0" || s === "" || s === "否") return false;
  }
  throw typeError(node, Array.isArray(v) ? "list" : String(v).slice(0, 40));
}

export function checkNumber(n: number, node: FormulaNode) {
  if (!Number.isFinite(n)) throw rangeError(node);
  return n;
}
export function checkText(s: string, node: FormulaNode) {
  if (s.length > MAX_TEXT) throw rangeError(node);
  return s;
}

/** Spreadsheet rounding: half away from zero, at `digits` places (negative rounds left of the point). */
function roundTo(x: number, digits: number, mode: "half" | "up" | "down") {
  const d = Math.max(-15, Math.min(15, Math.trunc(digits)));
  const shift = (v: number, e: number) => Number(`${v}e${e}`);
  const abs = Math.abs(x);
  const scaled = shift(abs, d);
  const r = mode === "half" ? Math.round(scaled) : mode === "up" ? Math.ceil(scaled - 1e-9) : Math.floor(scaled + 1e-9);
  return Math.sign(x) * shift(r, -d);
}

/** Dates are ISO texts ("2024-05-01" or "2024-05-01 08:30:00"); returns the UTC day it names. */
function toDate(v: Value, node: FormulaNode): Date {
  const s = toText(v).trim();
  const m = s.match(/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?/);
  if (!m) throw typeError(node, s.slice(0, 40));
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d, Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) throw typeError(node, s.slice(0, 40));
  return date;
}
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
function localParts(now: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "00";
  return { day: `${get("year")}-${get("month")}-${get("day")}`, time: `${get("hour")}:${get("minute")}:${get("second")}` };
}

const nums = (args: Value[], node: FormulaNode) => flatten(args).map((v) => toNumber(v, node));
/** Aggregates skip blanks and texts inside lists, as spreadsheets do over ranges. */
const numericOnly = (args: Value[]) =>
  flatten(args).filter((v) => typeof v === "number" || (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))));

function def(
  name: string,
  cn: string,
  zh: string,
  en: string,
  example: string,
  min: number,
  max: number,
  call: FunctionDef["call"],
): FunctionDef {
  return { name, cn, description: { zh, en }, example, min, max, call };
}

const MANY = 255;

const LIST: FunctionDef[] = [
  {
    name: "IF",
    cn: "如果",
    description: { zh: "条件成立时返回第二个参数，否则返回第三个参数", en: "the second argument when the condition holds, else the third" },
    example: 'IF(score >= 60, "及格", "不及格")',
    min: 2,
    max: 3,
    lazy: (args, ev, node) => (toBool(ev(args[0]), node) ? ev(args[1]) : args[2] ? ev(args[2]) : false),
  },
  {
    name: "IFS",
    cn: "多条件判断",
    description: { zh: "依次检查条件，返回第一个成立条件对应的值", en: "the value of the first condition that holds" },
    example: 'IFS(score >= 90, "优", score >= 60, "良", TRUE, "差")',
    min: 2,
    max: MANY,
    lazy: (args, ev, node) => {
      if (args.length % 2) throw new FormulaError("argCount", node.start, node.end, "IFS");
      for (let i = 0; i < args.length; i += 2) if (toBool(ev(args[i]), node)) return ev(args[i + 1]);
      return null;
    },
  },
  {
    name: "IFERROR",
    cn: "出错时取值",
    description: { zh: "第一个参数计算出错时返回第二个参数", en: "the second argument when the first one fails" },
    example: "IFERROR(amount / count, 0)",
    min: 2,
    max: 2,
    lazy: (args, ev) => {
      try {
        return ev(args[0]);
      } catch (e) {
        if (e instanceof FormulaError && e.code !== "tooDeep") return ev(args[1]);
        throw e;
      }
    },
  },
  def("AND", "并且", "所有条件都成立时为真", "true when every condition holds", "AND(age >= 18, age < 60)", 1, MANY, (a, n) =>
    flatten(a).every((v) => toBool(v, n)),
  ),
  def("OR", "或者", "任一条件成立时为真", "true when any condition holds", 'OR(level = "VIP", amount > 1000)', 1, MANY, (a, n) =>
    flatten(a).some((v) => toBool(v, n)),
  ),
  def("NOT", "非", "条件取反", "the opposite of the condition", "NOT(isBlack)", 1, 1, (a, n) => !toBool(a[0], n)),
  def("XOR", "异或", "成立的条件个数为奇数时为真", "true when an odd number of conditions hold", "XOR(a > 1, b > 1)", 1, MANY, (a, n) =>
    flatten(a).reduce<boolean>((acc, v) => acc !== toBool(v, n), false),
  ),
  def(
    "IN",
    "属于",
    "第一个参数等于后面任一个值时为真",
    "true when the first argument equals any of the others",
    'IN(city, "北京", "上海")',
    2,
    MANY,
    (a) => {
      const [x, ...rest] = a;
      return flatten(rest).some((v) => looseEquals(x, v));
    },
  ),
  def("ISBLANK", "为空", "值为空时为真", "true when the value is empty", "ISBLANK(remark)", 1, 1, (a) => a[0] === null || a[0] === ""),
  def("ISNUMBER", "是数字", "值是数字时为真", "true when the value is a number", "ISNUMBER(amount)", 1, 1, (a) => {
    const v = a[0];
    return typeof v === "number" || (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)));
  }),
  def("SUM", "求和", "数值求和", "the sum of the numbers", "SUM(a, b, 100)", 1, MANY, (a, n) =>
    checkNumber(
      nums(a, n).reduce((s, x) => s + x, 0),
      n,
    ),
  ),
  def("AVERAGE", "平均值", "数值的平均值", "the mean of the numbers", "AVERAGE(scores)", 1, MANY, (a, n) => {
    const xs = numericOnly(a).map((v) => toNumber(v, n));
    if (!xs.length) throw new FormulaError("divZero", n.start, n.end);
    return checkNumber(xs.reduce((s, x) => s + x, 0) / xs.length, n);
  }),
  def("MIN", "最小值", "数值中的最小值", "the smallest number", "MIN(a, b, 0)", 1, MANY, (a, n) => {
    const xs = nums(a, n);
    return xs.length ? Math.min(...xs.slice(0, MAX_LIST)) : 0;
  }),
  def("MAX", "最大值", "数值中的最大值", "the largest number", "MAX(a, b, 0)", 1, MANY, (a, n) => {
    const xs = nums(a, n);
    return xs.length ? Math.max(...xs.slice(0, MAX_LIST)) : 0;
  }),
  def("COUNT", "计数", "数值的个数", "how many numbers there are", "COUNT(orders)", 1, MANY, (a) => numericOnly(a).length),
  def("ROUND", "四舍五入", "按指定小数位四舍五入", "rounds to the given decimal places", "ROUND(3.14159, 2)", 1, 2, (a, n) =>
    checkNumber(roundTo(toNumber(a[0], n), a[1] === undefined ? 0 : toNumber(a[1], n), "half"), n),
  ),
  def("ROUNDUP", "向上舍入", "按指定小数位远离零舍入", "rounds away from zero", "ROUNDUP(3.141, 1)", 1, 2, (a, n) =>
    checkNumber(roundTo(toNumber(a[0], n), a[1] === undefined ? 0 : toNumber(a[1], n), "up"), n),
  ),
  def("ROUNDDOWN", "向下舍入", "按指定小数位向零舍入", "rounds towards zero", "ROUNDDOWN(3.149, 1)", 1, 2, (a, n) =>
    checkNumber(roundTo(toNumber(a[0], n), a[1] === undefined ? 0 : toNumber(a[1], n), "down"), n),
  ),
  def("ABS", "绝对值", "数值的绝对值", "the absolute value", "ABS(-5)", 1, 1, (a, n) => Math.abs(toNumber(a[0], n))),
  def("INT", "取整", "向下取整到整数", "rounds down to an integer", "INT(7.8)", 1, 1, (a, n) => Math.floor(toNumber(a[0], n))),
  def("MOD", "取余", "两数相除的余数（符号同除数）", "the remainder, with the divisor's sign", "MOD(10, 3)", 2, 2, (a, n) => {
    const [x, y] = [toNumber(a[0], n), toNumber(a[1], n)];
    if (y === 0) throw new FormulaError("divZero", n.start, n.end);
    return checkNumber(x - y * Math.floor(x / y), n);
  }),
  def("POWER", "乘方", "数值的乘方", "the number raised to a power", "POWER(2, 10)", 2, 2, (a, n) =>
    checkNumber(toNumber(a[0], n) ** toNumber(a[1], n), n),
  ),
  def("SQRT", "平方根", "数值的平方根", "the square root", "SQRT(16)", 1, 1, (a, n) => {
    const x = toNumber(a[0], n);
    if (x < 0) throw rangeError(n);
    return Math.sqrt(x);
  }),
  def(
    "CEILING",
    "向上取倍数",
    "向上舍入到最接近的基数倍数",
    "rounds up to a multiple of the significance",
    "CEILING(23, 5)",
    1,
    2,
    (a, n) => {
      const s = a[1] === undefined ? 1 : toNumber(a[1], n);
      if (s === 0) return 0;
      return checkNumber(Math.ceil(toNumber(a[0], n) / s) * s, n);
    },
  ),
  def(
    "FLOOR",
    "向下取倍数",
    "向下舍入到最接近的基数倍数",
    "rounds down to a multiple of the significance",
    "FLOOR(23, 5)",
    1,
    2,
    (a, n) => {
      const s = a[1] === undefined ? 1 : toNumber(a[1], n);
      if (s === 0) return 0;
      return checkNumber(Math.floor(toNumber(a[0], n) / s) * s, n);
    },
  ),
  def("CONCAT", "连接", "把多个文本连成一个", "joins texts into one", 'CONCAT(name, "先生")', 1, MANY, (a, n) =>
    checkText(flatten(a).map(toText).join(""), n),
  ),
  def("LEN", "长度", "文本的字符数", "the number of characters", "LEN(phone)", 1, 1, (a) => [...toText(a[0])].length),
  def("LEFT", "左取", "从左边取指定个数的字符", "the first characters", "LEFT(idCard, 6)", 1, 2, (a, n) =>
    [...toText(a[0])].slice(0, a[1] === undefined ? 1 : Math.max(0, toNumber(a[1], n))).join(""),
  ),
  def("RIGHT", "右取", "从右边取指定个数的字符", "the last characters", "RIGHT(phone, 4)", 1, 2, (a, n) => {
    const chars = [...toText(a[0])];
    const k = a[1] === undefined ? 1 : Math.max(0, toNumber(a[1], n));
    return k === 0 ? "" : chars.slice(-k).join("");
  }),
  def("MID", "中间取", "从指定位置起取指定个数的字符", "characters from a position", "MID(idCard, 7, 8)", 3, 3, (a, n) => {
    const start = toNumber(a[1], n);
    if (start < 1) throw rangeError(n);
    return [...toText(a[0])].slice(start - 1, start - 1 + Math.max(0, toNumber(a[2], n))).join("");
  }),
  def("UPPER", "转大写", "文本转为大写", "the text in upper case", 'UPPER("abc")', 1, 1, (a) => toText(a[0]).toUpperCase()),
  def("LOWER", "转小写", "文本转为小写", "the text in lower case", 'LOWER("ABC")', 1, 1, (a) => toText(a[0]).toLowerCase()),
  def("TRIM", "去空格", "去掉首尾空格", "the text without surrounding spaces", "TRIM(name)", 1, 1, (a) => toText(a[0]).trim()),
  def("SUBSTITUTE", "替换", "把文本中的旧内容替换为新内容", "replaces old text with new", 'SUBSTITUTE(phone, "-", "")', 3, 3, (a, n) => {
    const old = toText(a[1]);
    return old === "" ? toText(a[0]) : checkText(toText(a[0]).split(old).join(toText(a[2])), n);
  }),
  def("CONTAINS", "包含", "文本包含指定内容时为真", "true when the text contains the part", 'CONTAINS(address, "北京")', 2, 2, (a) =>
    toText(a[0]).includes(toText(a[1])),
  ),
  def("VALUE", "转数值", "把文本转为数值", "the number a text holds", 'VALUE("12.5")', 1, 1, (a, n) => toNumber(a[0], n)),
  def(
    "TODAY",
    "今天",
    "今天的日期（YYYY-MM-DD）",
    "today's date (YYYY-MM-DD)",
    "TODAY()",
    0,
    0,
    (_a, _n, ctx) => localParts(ctx.now, ctx.timeZone).day,
  ),
  def("NOW", "现在", "当前日期和时间", "the current date and time", "NOW()", 0, 0, (_a, _n, ctx) => {
    const p = localParts(ctx.now, ctx.timeZone);
    return `${p.day} ${p.time}`;
  }),
  def("DATE", "日期", "由年、月、日组成日期", "a date from year, month and day", "DATE(2024, 5, 1)", 3, 3, (a, n) => {
    const d = new Date(Date.UTC(toNumber(a[0], n), toNumber(a[1], n) - 1, toNumber(a[2], n)));
    if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) throw rangeError(n);
    return isoDay(d);
  }),
  def("YEAR", "年份", "日期的年份", "the year of a date", 'YEAR("2024-05-01")', 1, 1, (a, n) => toDate(a[0], n).getUTCFullYear()),
  def("MONTH", "月份", "日期的月份", "the month of a date", 'MONTH("2024-05-01")', 1, 1, (a, n) => toDate(a[0], n).getUTCMonth() + 1),
  def("DAY", "日", "日期的日", "the day of a date", 'DAY("2024-05-01")', 1, 1, (a, n) => toDate(a[0], n).getUTCDate()),
  def(
    "DAYS",
    "相差天数",
    "两个日期相差的天数（结束减开始）",
    "days from the start date to the end date",
    'DAYS("2024-05-10", "2024-05-01")',
    2,
    2,
    (a, n) => Math.round((toDate(a[0], n).getTime() - toDate(a[1], n).getTime()) / 86_400_000),
  ),
  def(
    "DATEDIF",
    "日期间隔",
    '两个日期之间的整年（"Y"）、整月（"M"）或天数（"D"）',
    'whole years ("Y"), months ("M") or days ("D") between two dates',
    'DATEDIF(birthday, TODAY(), "Y")',
    3,
    3,
    (a, n) => {
      const start = toDate(a[0], n);
      const end = toDate(a[1], n);
      if (start > end) throw rangeError(n);
      const unit = toText(a[2]).toUpperCase();
      const months =
        (end.getUTCFullYear() - start.getUTCFullYear()) * 12 +
        end.getUTCMonth() -
        start.getUTCMonth() -
        (end.getUTCDate() < start.getUTCDate() ? 1 : 0);
      if (unit === "Y") return Math.floor(months / 12);
      if (unit === "M") return months;
      if (unit === "D") return Math.round((end.getTime() - start.getTime()) / 86_400_000);
      throw typeError(n, unit);
    },
  ),
];

/** Loose equality as the `=` operator reads it: numbers by value, otherwise texts. */
export function looseEquals(a: Value, b: Value): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  return toText(a) === toText(b);
}
export function numeric(v: Value): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return undefined;
  if (typeof v === "string" && v.trim() !== "" && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v.trim())) {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** The functions, by name: a Map, so no name reaches an object's prototype. */
export const FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map(LIST.map((f) => [f.name, f]));
export const FUNCTION_CN: Record<string, string> = Object.fromEntries(LIST.map((f) => [f.name, f.cn]));
