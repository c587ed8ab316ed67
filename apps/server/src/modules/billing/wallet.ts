import { and, count, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Language } from "@agentfair/contracts";
import type { Db } from "../../db/client.ts";
import { orders, planTemplates, walletLedger } from "../../db/schema/index.ts";
import type { Caller } from "../../platform/auth.ts";
import { badRequest } from "../../platform/errors.ts";
import { yuan } from "./billing.repository.ts";
import { orderTitle } from "./orders.service.ts";
import { shanghaiDay } from "./quotas.ts";

const USE_KINDS = ["USE", "EDIT_FEE", "COPY_FEE"];
const startOf = (day: string) => {
  const at = new Date(`${day}T00:00:00+08:00`);
  // Shaped like a date but not one (2024-13-45): bad input, not a server error.
  if (Number.isNaN(at.getTime())) throw badRequest("badRequest", { detail: "date" });
  return at;
};
const DAY_MS = 86_400_000;

/** The wallet log and the usage charts (lineChart by day and agent, pieChart by agent). */
export async function walletLog(
  db: Db,
  caller: Caller,
  type: "USE" | "ALL",
  req: { pageNumber: number; pageSize: number; startDate?: string; endDate?: string },
  lang: Language,
) {
  const endDay = req.endDate ?? shanghaiDay();
  const startDay = req.startDate ?? shanghaiDay(new Date(startOf(endDay).getTime() - 6 * DAY_MS));
  const from = startOf(startDay);
  const to = new Date(startOf(endDay).getTime() + DAY_MS);
  const mine = eq(walletLedger.userId, caller.userId);
  const ranged = and(mine, gte(walletLedger.createdAt, from), lt(walletLedger.createdAt, to));
  const listWhere = type === "USE" ? and(ranged, inArray(walletLedger.kind, USE_KINDS)) : ranged;
  const rows = await db
    .select({ entry: walletLedger, order: orders, plan: planTemplates })
    .from(walletLedger)
    .leftJoin(orders, eq(orders.id, walletLedger.orderId))
    .leftJoin(planTemplates, eq(planTemplates.id, orders.templateId))
    .where(listWhere)
    .orderBy(desc(walletLedger.createdAt), desc(walletLedger.id))
    .limit(req.pageSize)
    .offset(req.pageNumber * req.pageSize);
  const [{ total }] = await db.select({ total: count() }).from(walletLedger).where(listWhere);
  const useWhere = and(ranged, inArray(walletLedger.kind, USE_KINDS));
  const dayExpr = sql<string>`to_char(${walletLedger.createdAt} at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`;
  const nameExpr = sql<string>`coalesce(${walletLedger.agentName}, '')`;
  const line = await db
    .select({ dates: dayExpr, agentName: nameExpr, amount: sql<string>`sum(-${walletLedger.amountCents})` })
    .from(walletLedger)
    .where(useWhere)
    .groupBy(dayExpr, nameExpr)
    .orderBy(dayExpr);
  const pie = await db
    .select({ agentName: nameExpr, amount: sql<string>`sum(-${walletLedger.amountCents})` })
    .from(walletLedger)
    .where(useWhere)
    .groupBy(nameExpr)
    .orderBy(desc(sql`sum(-${walletLedger.amountCents})`));
  return {
    list: rows.map(({ entry, order, plan }) => ({
      id: entry.id,
      kind: entry.kind as "USE",
      amount: yuan(entry.amountCents),
      balanceAfter: yuan(entry.balanceAfterCents),
      agentId: entry.agentId,
      agentName: entry.agentName,
      orderNo: order?.orderNo ?? null,
      // A membership bought: what the order was for, in the reader's language.
      note: entry.kind === "MEMBERSHIP" && order ? `${orderTitle(order, lang, plan)} ¥${yuan(order.amountCents)}` : entry.note,
      createTime: entry.createdAt.toISOString(),
    })),
    total,
    lineChart: line.map((r) => ({ dates: r.dates, agentName: r.agentName, amount: yuan(Number(r.amount)) })),
    pieChart: pie.map((r) => ({ agentName: r.agentName, amount: yuan(Number(r.amount)) })),
  };
}
