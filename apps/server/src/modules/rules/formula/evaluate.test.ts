import { FormulaError, parseFormula, tokenize } from "@agentfair/contracts/rules-formula";
import { describe, expect, it } from "vitest";
import { compile, evaluate, functionList, type Value } from "./evaluate.ts";

const now = new Date("2026-03-15T02:00:00Z");
const run = (expr: string, params: Record<string, Value> = {}) => evaluate(expr, new Map(Object.entries(params)), { now }).value;
const code = (expr: string, params: Record<string, Value> = {}) => {
  try {
    run(expr, params);
  } catch (e) {
    if (e instanceof FormulaError) return e.code;
    throw e;
  }
  return "ok";
};

/** One worked case per function in the list: the list and the cases must stay the same length. */
const CASES: Record<string, [string, Value, Record<string, Value>?]> = {
  IF: ['IF(score >= 60, "及格", "不及格")', "及格", { score: 75 }],
  IFS: ['IFS(s >= 90, "优", s >= 60, "良", TRUE, "差")', "良", { s: 70 }],
  IFERROR: ["IFERROR(1 / 0, -1)", -1],
  AND: ["AND(age >= 18, age < 60)", true, { age: "30" }],
  OR: ['OR(level = "VIP", amount > 1000)', true, { level: "普通", amount: 2000 }],
  NOT: ["NOT(x)", false, { x: true }],
  XOR: ["XOR(TRUE, FALSE, TRUE)", false],
  IN: ['IN(city, "北京", "上海")', true, { city: "上海" }],
  ISBLANK: ["ISBLANK(r)", true, { r: "" }],
  ISNUMBER: ["ISNUMBER(a)", true, { a: "12.5" }],
  SUM: ["SUM(a, b, 100)", 103, { a: 1, b: "2" }],
  AVERAGE: ["AVERAGE(xs)", 2, { xs: [1, 2, 3, "x"] }],
  MIN: ["MIN(3, 1, 2)", 1],
  MAX: ["MAX(xs, 10)", 30, { xs: [30, 5] }],
  COUNT: ["COUNT(xs)", 2, { xs: [1, "a", 2] }],
  ROUND: ["ROUND(2.345, 2)", 2.35],
  ROUNDUP: ["ROUNDUP(3.141, 1)", 3.2],
  ROUNDDOWN: ["ROUNDDOWN(-3.149, 1)", -3.1],
  ABS: ["ABS(-5)", 5],
  INT: ["INT(-7.5)", -8],
  MOD: ["MOD(-10, 3)", 2],
  POWER: ["POWER(2, 10)", 1024],
  SQRT: ["SQRT(16)", 4],
  CEILING: ["CEILING(23, 5)", 25],
  FLOOR: ["FLOOR(23, 5)", 20],
  CONCAT: ['CONCAT(name, "先生")', "张先生", { name: "张" }],
  LEN: ['LEN("中文ab")', 4],
  LEFT: ['LEFT("110101199001011234", 6)', "110101"],
  RIGHT: ['RIGHT("13800001234", 4)', "1234"],
  MID: ['MID("110101199001011234", 7, 8)', "19900101"],
  UPPER: ['UPPER("abc")', "ABC"],
  LOWER: ['LOWER("ABC")', "abc"],
  TRIM: ['TRIM("  a b ")', "a b"],
  SUBSTITUTE: ['SUBSTITUTE("138-0000", "-", "")', "1380000"],
  CONTAINS: ['CONTAINS("北京市海淀区", "北京")', true],
  VALUE: ['VALUE("12.5") + 1', 13.5],
  TODAY: ["TODAY()", "2026-03-15"],
  NOW: ["NOW()", "2026-03-15 10:00:00"],
  DATE: ["DATE(2024, 2, 30)", "2024-03-01"],
  YEAR: ['YEAR("2024-05-01")', 2024],
  MONTH: ['MONTH("2024-05-01")', 5],
  DAY: ['DAY("2024-05-01 08:00")', 1],
  DAYS: ['DAYS("2024-05-10", "2024-05-01")', 9],
  DATEDIF: ['DATEDIF("1990-03-16", TODAY(), "Y")', 35],
};

describe("formula functions", () => {
  it("has a case for every listed function, and each list entry has a description and an example", () => {
    const list = functionList("zh");
    expect(list.map((f) => f.name).sort()).toEqual(Object.keys(CASES).sort());
    for (const f of [...list, ...functionList("en")]) {
      expect(f.description.length).toBeGreaterThan(2);
      expect(() => compile(f.example)).not.toThrow();
    }
  });
  for (const [name, [expr, expected, params]] of Object.entries(CASES)) {
    it(name, () => expect(run(expr, params)).toEqual(expected));
  }
  it("DATEDIF months and days", () => {
    expect(run('DATEDIF("2024-01-31", "2024-03-01", "M")')).toBe(1);
    expect(run('DATEDIF("2024-01-01", "2024-03-01", "D")')).toBe(60);
    expect(code('DATEDIF("2024-05-01", "2024-01-01", "D")')).toBe("range");
  });
});

describe("formula operators and reading", () => {
  it("follows the usual precedence", () => {
    expect(run("1 + 2 * 3 ^ 2")).toBe(19);
    expect(run("-2 ^ 2")).toBe(-4);
    expect(run('1 + 1 = 2 && "a" & "b" = "ab"')).toBe(true);
    expect(run("10 / 4 <> 2.5 || 3 >= 3")).toBe(true);
    expect(run("a > b", { a: "10", b: "9" })).toBe(true);
  });
  it("writes the Chinese reading and the canonical expression", () => {
    const c = compile('IF(AND(age>=18,score>60),"通过","拒绝")');
    expect(c.showExpression).toBe('IF(AND(age >= 18, score > 60), "通过", "拒绝")');
    expect(c.expressionCn).toBe("如果【age】大于等于18并且【score】大于60，则“通过”，否则“拒绝”");
    expect(compile("ROUND(a*1.5, 2)", undefined, { a: "金额" }).expressionCn).toBe("四舍五入（【金额】乘以1.5，2）");
  });
  it("returns a trace of the steps", () => {
    const r = evaluate("IF(a > 1, SUM(a, 1), 0)", new Map([["a", 2]]));
    expect(r.value).toBe(3);
    expect(r.trace.map((s) => s.expression)).toEqual(["a > 1", "SUM(a, 1)", "IF(a > 1, SUM(a, 1), 0)"]);
  });
  it("reports errors with their place", () => {
    expect(code("1 +")).toBe("unexpectedEnd");
    expect(code("FOO(1)")).toBe("unknownFunction");
    expect(code("ROUND()")).toBe("argCount");
    expect(code("1 / 0")).toBe("divZero");
    expect(code("x + 1")).toBe("unknownName");
    expect(code('"abc')).toBe("unterminatedString");
    expect(code("1 # 2")).toBe("unexpectedChar");
    expect(code('1 + "a"')).toBe("type");
    try {
      parseFormula("SUM(1, 2))");
    } catch (e) {
      expect((e as FormulaError).start).toBe(9);
    }
  });
  it("tokenizes leniently for the editor", () => {
    const types = tokenize('IF(a # "x', true).map((t) => t.type);
    expect(types).toEqual(["function", "paren", "name", "space", "error", "space", "error"]);
  });
});

describe("hostile formulas", () => {
  it("treats prototype keys as unknown names, never as object properties", () => {
    for (const name of ["constructor", "__proto__", "prototype", "toString", "hasOwnProperty", "valueOf"]) {
      expect(code(`${name} + 1`)).toBe("unknownName");
      expect(code(`${name}(1)`)).toBe("unknownFunction");
    }
    expect(code("constructor.constructor")).toBe("unexpectedToken");
    expect(run("constructor", { constructor: 5 })).toBe(5);
  });
  it("refuses deep nesting", () => {
    expect(code(`${"(".repeat(200)}1${")".repeat(200)}`)).toBe("tooDeep");
    expect(code(`${"ABS(".repeat(100)}1${")".repeat(100)}`)).toBe("tooDeep");
    expect(code(`${"-".repeat(100)}1`)).toBe("tooDeep");
    expect(run(`${"ABS(".repeat(20)}-1${")".repeat(20)}`)).toBe(1);
  });
  it("refuses huge numbers and results out of range", () => {
    expect(code("1e400")).toBe("badNumber");
    expect(code("1e308 * 10")).toBe("range");
    expect(code("POWER(10, 400)")).toBe("range");
    expect(code("9 ^ 9 ^ 9")).toBe("range");
    expect(run("99999999999999999999 > 1")).toBe(true);
  });
  it("refuses a 1 MB expression before reading it, and runaway texts", () => {
    const big = `1${" + 1".repeat(250_000)}`;
    expect(big.length).toBeGreaterThan(1_000_000);
    const started = Date.now();
    expect(code(big)).toBe("tooLong");
    expect(Date.now() - started).toBeLessThan(200);
    let e = "s";
    for (let i = 0; i < 20; i++) e = `CONCAT(${e}, ${e})`.length < 9000 ? `CONCAT(${e}, ${e})` : e;
    expect(code("CONCAT(s, s, s, s, s, s, s, s, s, s, s, s) & s", { s: "x".repeat(60_000) })).toBe("range");
  });
});
