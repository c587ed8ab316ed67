/**
 * The offline demo model's answers to the analysis prompts (report agents' plan and findings, chat
 * insight), so that the demo's report agents, their marketplace templates and chat insight work on a
 * machine without a model service. Like the rest of the offline model it does not understand
 * language: it recognises the prompts by their marks (those of insight.service.ts and
 * chat-insight.service.ts) and answers by fixed rules over the tables and results they carry.
 */
export const PLAN_MARK = "【数据分析规划】";
export const FINDINGS_MARK = "【数据分析结论】";
export const CHAT_INSIGHT_MARK = "【对话洞察】";

interface Column {
  name: string;
  type: string;
  label: string;
}
interface Table {
  name: string;
  columns: Column[];
  intro: string;
}

/** The plan prompt's tables: `TABLE name: col type (label), ...` and a `-- introduction` line. */
function tablesOf(system: string): Table[] {
  const tables: Table[] = [];
  const lines = system.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(/^TABLE ([^:]+): (.*)$/);
    if (!m) continue;
    const columns = m[2].split(", ").map((c) => {
      const [name = "", type = "text"] = c.split(" ");
      return { name, type, label: c.match(/\((.*)\)$/)?.[1] ?? "" };
    });
    const intro = lines[i + 1]?.startsWith("-- ") ? lines[i + 1].slice(3) : "";
    tables.push({ name: m[1].trim(), columns, intro });
  }
  return tables;
}

/** A name as SQL: plain when it is a simple identifier, else quoted. */
const ident = (n: string) => (/^[a-z_][a-z0-9_]*$/.test(n) ? n : `"${n.replace(/"/g, '""')}"`);

type Step = { title: string; sql: string; chart: "bar" | "line" | "pie" | "table" };

/** A plan over the table the question names (else the first): totals by category, a monthly trend, a share. */
export function offlinePlan(system: string, question: string): string {
  const tables = tablesOf(system);
  const table = tables.find((t) => question.includes(t.name) || t.columns.some((c) => c.label && question.includes(c.label))) ?? tables[0];
  if (!table) return JSON.stringify({ title: "", steps: [] });
  const range = system.match(/规划 (?:(\d+) 到 )?(\d+) 个/);
  const max = Math.max(1, Number(range?.[2] ?? 3));
  const of = (...types: string[]) => table.columns.find((c) => types.includes(c.type));
  const text = of("text");
  const num = of("number", "integer");
  const date = of("date", "datetime");
  const said = (c: Column) => c.label || c.name;
  const t = ident(table.name);
  const steps: Step[] = [];
  if (text && num)
    steps.push({
      title: `各${said(text)}的${said(num)}合计`,
      sql: `SELECT ${ident(text.name)}, sum(${ident(num.name)}) AS total FROM ${t} GROUP BY ${ident(text.name)} ORDER BY total DESC LIMIT 20`,
      chart: "bar",
    });
  if (date && num)
    steps.push({
      title: `每月${said(num)}趋势`,
      sql: `SELECT to_char(${ident(date.name)}, 'YYYY-MM') AS month, sum(${ident(num.name)}) AS total FROM ${t} GROUP BY month ORDER BY month`,
      chart: "line",
    });
  if (text)
    steps.push({
      title: `各${said(text)}的记录数占比`,
      sql: `SELECT ${ident(text.name)}, count(*) AS n FROM ${t} GROUP BY ${ident(text.name)} ORDER BY n DESC LIMIT 10`,
      chart: "pie",
    });
  steps.push({ title: "记录总数", sql: `SELECT count(*) AS n FROM ${t}`, chart: "table" });
  // The question's words pick which comes first: a trend, a share, or the totals.
  const first = /趋势|每月|月度|走势|trend|month/i.test(question)
    ? "line"
    : /占比|比例|分布|构成|share|proportion/i.test(question)
      ? "pie"
      : "bar";
  steps.sort((a, b) => Number(b.chart === first) - Number(a.chart === first));
  return JSON.stringify({ title: `${table.intro.split(/[：:，,。]/)[0] || table.name}数据分析`, steps: steps.slice(0, max) });
}

/** The findings prompt's results: `## title`, a header line, then rows of `a | b`. */
function resultsOf(prompt: string) {
  const body = prompt.split("\n# 参考资料")[0];
  return body
    .split(/^## /m)
    .slice(1)
    .map((part) => {
      const [title = "", header = "", ...rows] = part.trim().split("\n");
      return { title: title.trim(), columns: header.split(" | "), rows: rows.filter(Boolean).map((r) => r.split(" | ")) };
    });
}

/** Findings by rule: per result its largest value (or its row count), and for industry reports four sections with the sources. */
export function offlineFindings(system: string, prompt: string): string {
  const lines = resultsOf(prompt).map(({ title, columns, rows }) => {
    const numeric = rows.length > 0 && rows.every((r) => r.length > 1 && r[1] !== "" && !Number.isNaN(Number(r[1])));
    if (!numeric) return rows.length === 1 ? `- ${title}：${rows[0].join(" / ")}` : `- ${title}：共 ${rows.length} 行。`;
    const top = [...rows].sort((a, b) => Number(b[1]) - Number(a[1]))[0];
    const sum = rows.reduce((n, r) => n + Number(r[1]), 0);
    const round = (x: number) => Math.round(x * 100) / 100;
    return rows.length === 1
      ? `- ${title}：${columns[0]} ${top[0]} 为 ${round(Number(top[1]))}。`
      : `- ${title}：最高的是 **${top[0]}**（${round(Number(top[1]))}），共 ${rows.length} 项，合计 ${round(sum)}。`;
  });
  if (!system.includes("行业报告")) return lines.join("\n");
  const sources = [...prompt.matchAll(/^\[(\d+)\] (.*)$/gm)].slice(0, 3);
  return [
    "## 概述",
    "",
    "（离线演示模型按固定规则撰写，接入真实大模型后报告会更完整。）",
    sources.length
      ? `本报告结合知识库资料 ${sources.map((s) => `[${s[1]}]`).join("")} 与数据表的查询结果。`
      : "本报告依据数据表的查询结果。",
    "",
    "## 数据分析",
    "",
    ...lines,
    "",
    "## 趋势与风险",
    "",
    ...(sources.length ? sources.map((s) => `- ${s[2].slice(0, 80)} [${s[1]}]`) : ["- 知识库中没有找到相关资料。"]),
    "",
    "## 建议",
    "",
    "- 持续跟踪上述指标的变化，并结合业务背景判断原因。",
  ].join("\n");
}

/** Chat insight by rule: the user's questions are the topics; words of (dis)content give the sentiment. */
export function offlineChatInsight(transcript: string): string {
  const turns = [...transcript.matchAll(/^(用户|助手)：(.*)$/gm)].map((m) => ({ user: m[1] === "用户", text: m[2].trim() }));
  const asked = turns.filter((t) => t.user && t.text);
  const topics = [...new Set(asked.map((t) => t.text.replace(/[？?。!！]+$/, "").slice(0, 24)))].slice(0, 5);
  const userText = asked.map((t) => t.text).join("\n");
  const sentiment = /不满意|投诉|太差|失望|生气|退款|差评/.test(userText)
    ? "negative"
    : /谢谢|满意|很好|感谢|不错|好评/.test(userText)
      ? "positive"
      : "neutral";
  // A question whose reply found nothing (or only the offline model's notice) is still open.
  const open = turns
    .map((t, i) => ({ t, reply: turns[i + 1] }))
    .filter(({ t, reply }) => t.user && /[？?]$/.test(t.text) && (!reply || reply.user || /没有找到|离线演示模型|无法/.test(reply.text)))
    .map(({ t }) => t.text)
    .slice(-3);
  return JSON.stringify({
    summary: topics.length
      ? `用户就「${topics[0]}」${topics.length > 1 ? `等 ${topics.length} 个问题` : ""}进行了咨询。`
      : "对话中没有用户提问。",
    topics,
    sentiment,
    openQuestions: open,
  });
}

/** The answer to one of the analysis prompts, or null for any other conversation. */
export function offlineAnalysis(system: string, prompt: string): string | null {
  if (system.includes(PLAN_MARK)) return offlinePlan(system, prompt);
  if (system.includes(FINDINGS_MARK)) return offlineFindings(system, prompt);
  if (system.includes(CHAT_INSIGHT_MARK)) return offlineChatInsight(prompt);
  return null;
}
