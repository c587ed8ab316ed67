import type { ParsedDocument, Segment } from "../types.ts";
import { blockText, numbered, type Table } from "./text.ts";

/** Section titles of a Chinese or English resume, by the group they open. */
const SECTIONS: { group: string; re: RegExp }[] = [
  { group: "基本信息", re: /^(基本信息|个人信息|个人资料|联系方式|personal (information|details)|contact)$/i },
  { group: "求职意向", re: /^(求职意向|期望职位|职业目标|objective|career objective)$/i },
  { group: "教育背景", re: /^(教育背景|教育经历|学历|education)$/i },
  { group: "工作经历", re: /^(工作经历|工作经验|职业经历|实习经历|work experience|experience|employment|professional experience)$/i },
  { group: "项目经历", re: /^(项目经历|项目经验|projects?|project experience)$/i },
  { group: "专业技能", re: /^(专业技能|技能|技能特长|技能证书|skills|technical skills)$/i },
  { group: "证书荣誉", re: /^(证书|获奖|荣誉|证书荣誉|获奖经历|certificates?|awards|honors)$/i },
  { group: "自我评价", re: /^(自我评价|个人评价|个人总结|summary|profile|about me)$/i },
];
const JOB_GROUPS = new Set(["工作经历", "项目经历"]);
const YEAR = "(19|20)\\d{2}";
/** A line that opens a job: it starts with a period "2018.03 - 2021.06", "2018年3月至今", "2019/7–present". */
const PERIOD = new RegExp(
  `^(${YEAR})\\s*(?:[.\\-/年]\\s*\\d{1,2}\\s*月?)?\\s*(?:[-–—~～至到]|to)\\s*(?:(${YEAR})(?:\\s*[.\\-/年]\\s*\\d{1,2}\\s*月?)?|至今|现在|今|present|now)`,
  "i",
);

interface Summary {
  name?: string;
  phone?: string;
  company?: string;
  education?: string;
  years?: number;
}

/**
 * resume: one chunk per field group (基本信息, 教育背景, 专业技能 …) and one per job or project, each starting
 * with a summary line: name, phone, latest company, highest education, years of work.
 */
export function chunkResume(doc: ParsedDocument): Segment[] {
  const lines = doc.blocks
    .flatMap((b) => (b.kind === "table" ? formLines(b) : blockText(b).split("\n")))
    .map((l) => l.trim())
    .filter(Boolean);
  const groups: { group: string; lines: string[] }[] = [{ group: "基本信息", lines: [] }];
  for (const line of lines) {
    const title = line.replace(/^[#■●◆▶\s]+|[:：\s]+$/g, "");
    const section = SECTIONS.find((s) => s.re.test(title));
    if (section) groups.push({ group: section.group, lines: [] });
    else groups[groups.length - 1].lines.push(line);
  }
  const work = groups.filter((g) => g.group === "工作经历").flatMap((g) => splitJobs(g.lines));
  const summary = summarize(lines, groups, work);
  const header = summaryLine(summary);
  const parts: Omit<Segment, "position" | "tokens">[] = [];
  for (const g of groups) {
    if (JOB_GROUPS.has(g.group)) {
      for (const job of splitJobs(g.lines)) parts.push({ content: `${header}\n${g.group}\n${job.join("\n")}`, title: g.group });
    } else if (g.lines.length) parts.push({ content: `${header}\n${g.group}\n${g.lines.join("\n")}`, title: g.group });
  }
  return numbered(parts);
}

/** A label cell of a resume's form: a few letters, no digits ("姓名", "工作年限", "Phone"). */
const LABEL = /^[\u4e00-\u9fa5A-Za-z ]{1,8}$/;

/**
 * A resume's table as lines: a form row of label/value pairs ("姓名 | 王小明 | 电话 | 138…") as "姓名：王小明｜电话：138…",
 * so the summary reads it like typed text; any other row (a job: period, company, title) as its cells apart by spaces.
 */
function formLines(table: Table): string[] {
  const rowLine = (row: string[]) => {
    const cells = row.length % 2 && !row.at(-1) ? row.slice(0, -1) : row;
    if (cells.length % 2 || !cells.every((c, i) => i % 2 || LABEL.test(c))) return cells.filter(Boolean).join(" ");
    const pairs: string[] = [];
    for (let i = 0; i < cells.length; i += 2) if (cells[i + 1]) pairs.push(`${cells[i]}：${cells[i + 1]}`);
    return pairs.join("｜");
  };
  return [...(table.name ? [table.name] : []), ...[table.header, ...table.rows].map(rowLine)].filter(Boolean);
}

/** A job per line starting with a period; lines before the first period (a table's header "时间 公司 职位") lead the first job. */
function splitJobs(lines: string[]): string[][] {
  const jobs: string[][] = [];
  let lead: string[] = [];
  for (const line of lines) {
    if (PERIOD.test(line)) {
      jobs.push([...lead, line]);
      lead = [];
    } else if (jobs.length) jobs[jobs.length - 1].push(line);
    else lead.push(line);
  }
  return lead.length ? [lead] : jobs;
}

/** The line of a job that gives its period. */
const periodLine = (job: string[]) => job.find((l) => PERIOD.test(l)) ?? job[0];

const DEGREES = ["博士", "硕士", "研究生", "MBA", "本科", "学士", "大专", "专科", "高中", "中专"];
const DEGREE_EN: [RegExp, string][] = [
  [/\b(ph\.?d|doctor)/i, "博士"],
  [/\b(master|m\.s\.|msc|mba)/i, "硕士"],
  [/\b(bachelor|b\.s\.|b\.a\.|bsc)/i, "本科"],
];

function summarize(lines: string[], groups: { group: string; lines: string[] }[], work: string[][]): Summary {
  const all = lines.join("\n");
  const field = (re: RegExp) => re.exec(all)?.[1]?.trim();
  const name =
    field(/(?:姓\s*名|name)\s*[:：]\s*([^\s|｜,，]{1,20})/i) ??
    lines.find((l) => /^[\u4e00-\u9fa5·]{2,4}$/.test(l) && !SECTIONS.some((s) => s.re.test(l)));
  const phone = field(/(?<!\d)((?:\+?86[-\s]?)?1[3-9]\d[-\s]?\d{4}[-\s]?\d{4})(?!\d)/)?.replace(/[-\s]/g, "");
  const education = educationOf(groups.find((g) => g.group === "教育背景")?.lines ?? lines);
  const company = work.length ? companyOf(work[0]) : undefined;
  return { name, phone, company, education, years: yearsOf(all, work) };
}

function educationOf(lines: string[]): string | undefined {
  const text = lines.join("\n");
  const degree = DEGREES.find((d) => text.includes(d)) ?? DEGREE_EN.find(([re]) => re.test(text))?.[1];
  const school = /([\u4e00-\u9fa5（）()]{2,20}(?:大学|学院|学校))|([A-Z][\w .&-]{2,60}(?:University|College|Institute))/.exec(text)?.[0];
  return [school, degree].filter(Boolean).join(" ") || undefined;
}

function companyOf(lines: string[]): string | undefined {
  const text = lines.join(" ");
  const named = /([\u4e00-\u9fa5A-Za-z0-9（）()]{2,40}(?:有限公司|股份公司|集团|公司|银行|研究院|事务所|工作室))/.exec(text)?.[1];
  if (named) return named.replace(/^.*?(?:至今|现在|\d{1,2}月?)\s*/, "");
  const en = /([A-Z][\w&.,-]*(?:\s+[A-Z][\w&.,-]*)*\s+(?:Inc\.?|Ltd\.?|LLC|Corp\.?|Co\.?|Group|Technologies|Bank))/.exec(text)?.[1];
  if (en) return en;
  // "2018.03 - 至今  某某科技  高级工程师": the words after the period.
  return (
    periodLine(lines)
      .replace(PERIOD, "")
      .trim()
      .split(/[\s|｜,，]+/)[0] || undefined
  );
}

/** Years of work: stated ("8年工作经验"), else the span of the job periods ("至今" counts as the latest year in the resume). */
function yearsOf(all: string, work: string[][]): number | undefined {
  const stated =
    /(\d{1,2})\s*年(?:以上)?(?:的)?(?:工作|从业|相关)?(?:经验|经历|工作经验)|工作年限\s*[:：]\s*(\d{1,2})|(\d{1,2})\+?\s*years? of experience/i.exec(
      all,
    );
  if (stated) return Number(stated[1] ?? stated[2] ?? stated[3]);
  const years = [...all.matchAll(/(?:19|20)\d{2}/g)].map((m) => Number(m[0]));
  const latest = Math.max(...years);
  let start = Number.POSITIVE_INFINITY;
  let end = 0;
  for (const job of work) {
    const m = PERIOD.exec(periodLine(job));
    if (!m) continue;
    start = Math.min(start, Number(m[1]));
    end = Math.max(end, m[3] ? Number(m[3]) : latest);
  }
  return end > 0 && start <= end ? end - start : undefined;
}

function summaryLine(s: Summary): string {
  return [
    `姓名：${s.name ?? "未知"}`,
    `电话：${s.phone ?? "未知"}`,
    `公司：${s.company ?? "未知"}`,
    `学历：${s.education ?? "未知"}`,
    `工作年限：${s.years === undefined ? "未知" : `${s.years}年`}`,
  ].join("｜");
}
