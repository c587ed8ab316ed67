import { TASK_TIME_ZONE } from "@agentfair/contracts";
import parser from "cron-parser";

/** The shortest gap between two runs a task may ask for: each run is a billed chat. */
export const MIN_GAP_MS = 5 * 60_000;

/** What a daily, weekly or monthly cycle means, as a five-field cron expression. */
export function cycleCron(cycle: "daily" | "weekly" | "monthly", time: string, weekday: number, monthday: number) {
  const [h, m] = time.split(":").map(Number);
  if (cycle === "weekly") return `${m} ${h} * * ${weekday}`;
  if (cycle === "monthly") return `${m} ${h} ${monthday} * *`;
  return `${m} ${h} * * *`;
}

/**
 * Whether the minutes of an hour could bring two runs closer than MIN_GAP_MS: two of the minutes
 * are (within an hour), or the last and the first across two hours that follow each other.
 */
function minutesTooClose(minutes: readonly number[], hours: readonly number[]) {
  const gap = MIN_GAP_MS / 60_000;
  const m = [...minutes].sort((x, y) => x - y);
  for (let i = 1; i < m.length; i++) if (m[i] - m[i - 1] < gap) return true;
  const h = new Set(hours);
  const consecutive = [...h].some((x) => h.has((x + 1) % 24));
  return consecutive && m.length > 0 && 60 - m[m.length - 1] + m[0] < gap;
}

/**
 * How far ahead a user's expression is looked at. The parser steps through the calendar, slowly (in
 * the time zone, milliseconds a step) and without an end of its own: "0 0 29 2 *" held the process
 * for seconds a look. An expression that does not run within a year is refused.
 */
const HORIZON_MS = 366 * 24 * 3600_000;

/**
 * Checks a user's cron expression: five fields (no seconds), parsable, its runs at least MIN_GAP_MS
 * apart by its fields (whenever they apply, so the moment it is checked does not matter) and a run
 * within a year. Returns the reason it is refused, or null.
 */
export function cronProblem(expr: string): "invalid" | "tooOften" | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return "invalid";
  try {
    const { minute, hour } = parser.parseExpression(expr, { tz: TASK_TIME_ZONE }).fields;
    if (minutesTooClose(minute, hour)) return "tooOften";
    return nextRuns(expr, new Date(), 1).length ? null : "invalid";
  } catch {
    return "invalid";
  }
}

/** The next run times after `from`, at most `count` and within a year, in the product's zone (for a user's expression). */
export function nextRuns(expr: string, from: Date, count: number): Date[] {
  const it = parser.parseExpression(expr, { currentDate: from, endDate: new Date(from.getTime() + HORIZON_MS), tz: TASK_TIME_ZONE });
  const out: Date[] = [];
  for (let i = 0; i < count && it.hasNext(); i++) out.push(it.next().toDate());
  return out;
}

/**
 * The next run of a saved task's expression (checked when saved, so found within a year; one saved
 * before that check may look further once a run). Throws when there is none.
 */
export function nextRun(expr: string, from: Date): Date {
  return parser.parseExpression(expr, { currentDate: from, tz: TASK_TIME_ZONE }).next().toDate();
}
