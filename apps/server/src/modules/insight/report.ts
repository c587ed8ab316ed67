import { type DataQueryResult, INSIGHT_MAX_STEPS, type InsightReport, type ReportBlock, type ReportView } from "@agentfair/contracts";
import { z } from "zod";
import type { InsightPlanStep } from "../../db/schema/insight.ts";

const planSchema = z.object({
  title: z.string().max(200).default(""),
  steps: z
    .array(
      z.object({
        title: z.string().min(1).max(200),
        sql: z.string().min(1).max(4000),
        chart: z.enum(["bar", "line", "pie", "table"]).catch("table"),
      }),
    )
    .min(1),
});

/** The model's plan: the first JSON object in its answer (fenced or not), at most `maxSteps` steps. */
export function parsePlan(text: string, maxSteps = INSIGHT_MAX_STEPS): { title: string; steps: InsightPlanStep[] } | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const parsed = planSchema.safeParse(JSON.parse(text.slice(start, end + 1)));
    if (!parsed.success) return null;
    return { title: parsed.data.title, steps: parsed.data.steps.slice(0, Math.min(maxSteps, INSIGHT_MAX_STEPS)) };
  } catch {
    return null;
  }
}

const CHART_MAX_POINTS = 50;
const TABLE_MAX_ROWS = 200;

/** A chart when the step asks for one and the result has a category column and numeric columns; else a table. */
export function blockOf(step: InsightPlanStep, r: DataQueryResult): ReportBlock {
  const numeric = r.columns.map(
    (_, i) =>
      i > 0 &&
      r.rows.length > 0 &&
      r.rows.every(
        (row) =>
          row[i] === null || typeof row[i] === "number" || (typeof row[i] === "string" && row[i] !== "" && !Number.isNaN(Number(row[i]))),
      ),
  );
  if (step.chart !== "table" && r.columns.length >= 2 && numeric.some(Boolean) && r.rows.length <= CHART_MAX_POINTS) {
    const cols = r.columns.map((c, i) => ({ c, i })).filter(({ i }) => numeric[i]);
    return {
      kind: "chart",
      title: step.title,
      chartType: step.chart,
      categoryColumn: r.columns[0],
      categories: r.rows.map((row) => String(row[0] ?? "")),
      // A pie draws the first series; the others stay, so the block can be drawn as bars again.
      series: cols.map(({ c, i }) => ({
        name: c,
        data: r.rows.map((row) => Number(row[i] ?? 0)),
      })),
      sql: step.sql,
    };
  }
  return {
    kind: "table",
    title: step.title,
    columns: r.columns,
    rows: r.rows
      .slice(0, TABLE_MAX_ROWS)
      .map((row) =>
        row.map((v) =>
          v === null || ["string", "number", "boolean"].includes(typeof v) ? (v as string | number | boolean | null) : String(v),
        ),
      ),
    sql: step.sql,
  };
}

/** What a step learned, for the chat: the first rows in one line. */
export function rowsPreview(r: DataQueryResult) {
  return r.rows
    .slice(0, 3)
    .map((row) => row.map((v) => String(v ?? "")).join(" / "))
    .join("；")
    .slice(0, 160);
}

const esc = (s: unknown) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/** A chart as its data table (a category column, then one column per series), or a table block as is. */
export function blockTable(b: ReportBlock): { columns: string[]; rows: DataQueryResult["rows"] } | null {
  if (b.kind === "table") return { columns: b.columns, rows: b.rows };
  if (b.kind === "chart")
    return {
      columns: [b.categoryColumn ?? "", ...b.series.map((s) => s.name)],
      rows: b.categories.map((c, i) => [c, ...b.series.map((s) => s.data[i])]),
    };
  return null;
}

/**
 * A chart or table block drawn another way from the data it holds (the report builder), or null
 * when the data cannot be drawn so: a chart needs a category column, a numeric one and at most
 * CHART_MAX_POINTS rows.
 */
export function redraw(b: ReportBlock, view: ReportView): ReportBlock | null {
  const t = blockTable(b);
  if (!t || b.kind === "text") return null;
  const drawn = blockOf({ title: b.title, sql: b.sql, chart: view }, { columns: t.columns, rows: t.rows, truncated: false });
  return (drawn.kind === "table") === (view === "table") ? drawn : null;
}

/** A self-contained page (no scripts): findings as text, every chart as its data table, for printing or archiving. */
export function reportHtml(r: InsightReport) {
  const parts = r.blocks.map((b) => {
    const t = blockTable(b);
    if (!t) return `<section><h2>${esc(b.title)}</h2><pre>${esc(b.kind === "text" ? b.content : "")}</pre></section>`;
    const head = t.columns.map((c) => `<th>${esc(c)}</th>`).join("");
    const body = t.rows.map((row) => `<tr>${row.map((v) => `<td>${esc(v)}</td>`).join("")}</tr>`).join("");
    return `<section><h2>${esc(b.title)}</h2><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></section>`;
  });
  return `<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>${esc(r.title)}</title><style>body{font-family:sans-serif;max-width:960px;margin:24px auto;padding:0 16px}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left}pre{white-space:pre-wrap;font-family:inherit}</style></head><body><h1>${esc(r.title)}</h1><p>${esc(r.question)}</p>${parts.join("")}</body></html>`;
}

export function reportMarkdown(r: InsightReport) {
  const cell = (v: unknown) =>
    String(v ?? "")
      .replace(/\|/g, "\\|")
      .replace(/\n/g, " ");
  const parts = r.blocks.map((b) => {
    const t = blockTable(b);
    if (!t) return `## ${b.title}\n\n${b.kind === "text" ? b.content : ""}`;
    return `## ${b.title}\n\n| ${t.columns.map(cell).join(" | ")} |\n|${t.columns.map(() => " --- ").join("|")}|\n${t.rows.map((row) => `| ${row.map(cell).join(" | ")} |`).join("\n")}`;
  });
  return `# ${r.title}\n\n> ${r.question}\n\n${parts.join("\n\n")}\n`;
}
