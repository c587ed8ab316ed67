import { type PluginInput, pluginInput } from "@agentfair/contracts";

/**
 * The standard (built-in) tools: listed to everyone, bindable to any agent, never edited
 * ('MCP and built-in plugins cannot be modified'). The time and the calculator are plain
 * JavaScript run in the sandbox like any plugin (their code is there to read); the web page
 * reader is an HTTP tool whose host side (`builtin: "web_fetch"`) reads any public page through
 * the platform's safe fetch, which an ordinary HTTP plugin with a fixed URL cannot do.
 */
export interface StandardPlugin {
  input: PluginInput;
  builtin?: "web_fetch";
}

const CALCULATOR = `// + - * / % ^ and parentheses, no eval: a small recursive-descent parser.
function main(params) {
  const src = String(params.expression ?? "").replace(/\\s+/g, "").replace(/×/g, "*").replace(/÷/g, "/");
  if (!src || src.length > 200) throw new Error("invalid expression");
  let pos = 0;
  const peek = () => src[pos];
  const expr = () => {
    let v = term();
    while (peek() === "+" || peek() === "-") v = src[pos++] === "+" ? v + term() : v - term();
    return v;
  };
  const term = () => {
    let v = power();
    while (peek() === "*" || peek() === "/" || peek() === "%") {
      const op = src[pos++];
      const r = power();
      v = op === "*" ? v * r : op === "/" ? v / r : v % r;
    }
    return v;
  };
  const power = () => {
    const base = unary();
    if (peek() === "^") { pos++; return base ** power(); }
    return base;
  };
  const unary = () => {
    if (peek() === "-") { pos++; return -unary(); }
    if (peek() === "+") { pos++; return unary(); }
    if (peek() === "(") {
      pos++;
      const v = expr();
      if (src[pos++] !== ")") throw new Error("invalid expression");
      return v;
    }
    const m = src.slice(pos).match(/^\\d+(\\.\\d+)?/);
    if (!m) throw new Error("invalid expression");
    pos += m[0].length;
    return Number(m[0]);
  };
  const value = expr();
  if (pos !== src.length || !Number.isFinite(value)) throw new Error("invalid expression");
  return { expression: params.expression, result: Math.round(value * 1e10) / 1e10 };
}
`;

const CURRENT_TIME = `// China keeps one time zone without daylight saving: UTC+8 all year.
function main() {
  const now = new Date();
  const local = new Date(now.getTime() + 8 * 3600 * 1000);
  const pad = (n) => String(n).padStart(2, "0");
  const weekdays = ["星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"];
  const shanghai =
    local.getUTCFullYear() + "-" + pad(local.getUTCMonth() + 1) + "-" + pad(local.getUTCDate()) + " " +
    pad(local.getUTCHours()) + ":" + pad(local.getUTCMinutes()) + ":" + pad(local.getUTCSeconds());
  return { iso: now.toISOString(), shanghai, weekday: weekdays[local.getUTCDay()], timeZone: "Asia/Shanghai" };
}
`;

const base = { pluginTags: ["内置工具"], pluginIconBackground: "#e8f3ff" };

export const STANDARD_PLUGINS: StandardPlugin[] = [
  {
    input: pluginInput.parse({
      ...base,
      pluginName: "当前时间",
      pluginDescription: "返回当前日期与时间（北京时间与 UTC ISO 8601）和星期",
      pluginIcon: "52",
      pluginType: "JAVASCRIPT",
      pluginCallableName: "current_time",
      code: CURRENT_TIME,
    }),
  },
  {
    input: pluginInput.parse({
      ...base,
      pluginName: "计算器",
      pluginDescription: "计算四则运算表达式，支持 + - * / % ^ 和括号，例如 (3 + 4) * 2",
      pluginIcon: "9",
      pluginType: "JAVASCRIPT",
      pluginCallableName: "calculator",
      parameters: [{ name: "expression", required: true, description: "算术表达式" }],
      code: CALCULATOR,
    }),
  },
  {
    input: pluginInput.parse({
      ...base,
      pluginName: "网页读取",
      pluginDescription: "读取一个公开网页（http 或 https），返回标题和正文文本；内网地址一律拒绝",
      pluginIcon: "44",
      pluginType: "HTTP",
      pluginCallableName: "web_fetch",
      url: "https://",
      method: "GET",
      parameters: [{ name: "url", required: true, description: "网页地址，http:// 或 https:// 开头" }],
    }),
    builtin: "web_fetch",
  },
];

/** Most characters of page text handed to the model. */
export const WEB_TEXT_MAX = 20_000;

/** The readable text of an HTML page: scripts, styles and tags gone, entities decoded, spaces collapsed. */
export function pageText(html: string): { title: string; text: string } {
  const title = decode(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? "").trim();
  const text = decode(
    html
      .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(/<!--[\s\S]*?-->/g, " ")
      .replace(/<\/(p|div|li|h[1-6]|tr|br|section|article|title)\s*>|<br\s*\/?>/gi, "\n")
      .replace(/<[^>]+>/g, " "),
  )
    .replace(/[ \t\f\v\r]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .replace(/\n{2,}/g, "\n")
    .trim();
  return { title, text: text.slice(0, WEB_TEXT_MAX) };
}

function decode(s: string) {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    }
    return named[e.toLowerCase()] ?? m;
  });
}
