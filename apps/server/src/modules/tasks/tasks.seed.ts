import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, scheduledTasks, taskRuns, users } from "../../db/schema/index.ts";
import type { DemoSeed } from "../../seed/demo-seed.ts";
import { cycleCron, nextRun } from "./cron.ts";

/**
 * Demo: three tasks of the member on one of its released agents, a daily morning brief (with one
 * finished run in its history), a weekly report paused, and a paused e-mail-triggered task whose
 * mailbox (server, account; no password) a newcomer fills in to try it, so the page has something to try.
 */
export const seedTasks: DemoSeed = async (db: Db, ctx) => {
  const ownerId = ctx.users.member;
  if (!ownerId) return;
  const [member] = await db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, ownerId));
  const [agent] = await db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.ownerId, ownerId), eq(agents.agentStatus, "C90_Released")))
    .limit(1);
  if (!member || !agent) return;
  const daily = cycleCron("daily", "09:00", 1, 1);
  const weekly = cycleCron("weekly", "17:30", 5, 1);
  const now = new Date();
  const [brief] = await db
    .insert(scheduledTasks)
    .values([
      {
        tenantId: member.tenantId,
        ownerId,
        name: "每日早报",
        targetType: "agent",
        targetId: agent.id,
        prompt: "用三句话总结今天值得关注的行业动态",
        triggerType: "cycle",
        cron: daily,
        cycle: "daily",
        cycleTime: "09:00",
        delivery: "in_app",
        enabled: true,
        nextRunAt: nextRun(daily, now),
      },
      {
        tenantId: member.tenantId,
        ownerId,
        name: "周五周报提醒",
        targetType: "agent",
        targetId: agent.id,
        prompt: "列出写周报时要回顾的五个问题",
        triggerType: "cycle",
        cron: weekly,
        cycle: "weekly",
        cycleTime: "17:30",
        cycleWeekday: 5,
        delivery: "email",
        enabled: false,
        nextRunAt: null,
      },
      {
        tenantId: member.tenantId,
        ownerId,
        name: "客户来信摘要",
        targetType: "agent",
        targetId: agent.id,
        prompt: "总结这封客户来信的诉求，并给出回复要点",
        triggerType: "email",
        cron: "",
        mailHost: "imap.example.com",
        mailPort: 993,
        mailProtocol: "imaps",
        mailAccount: "service@example.com",
        delivery: "in_app",
        enabled: false,
        nextRunAt: null,
      },
    ])
    .returning();
  const yesterday = new Date(now.getTime() - 86_400_000);
  await db.insert(taskRuns).values({
    taskId: brief.id,
    trigger: "schedule",
    status: "SUCCEEDED",
    attempts: 1,
    dueAt: yesterday,
    startedAt: yesterday,
    finishedAt: new Date(yesterday.getTime() + 4000),
    output: "1. 大模型应用进入企业落地期；2. 多家厂商发布智能体平台；3. 数据安全合规要求持续收紧。",
  });
};
