import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { agents, robots, users } from "../../db/schema/index.ts";
import type { DemoSeed } from "../../seed/demo-seed.ts";

/**
 * Two demo robots of the administrator, disabled and without secrets (the seed has no platform
 * secret to seal them with): a newcomer opens /chat-robots, fills in the platform's keys, copies
 * the callback URL into WeCom or their own system and enables the robot (README: Chat robots).
 */
export const seedRobots: DemoSeed = async (db: Db, { users: byName }) => {
  const adminId = byName.admin;
  if (!adminId) return;
  const [admin] = await db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, adminId));
  const [agent] = await db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.ownerId, adminId), eq(agents.agentName, "公文写作助手")));
  if (!admin || !agent) return;
  await db.insert(robots).values([
    {
      tenantId: admin.tenantId,
      ownerId: adminId,
      name: "企业微信公文助手",
      type: "wecom",
      agentId: agent.id,
      enabled: false,
      settings: { corpId: "ww0000000000000000", appAgentId: "1000002" },
      secretsEnc: "",
    },
    {
      tenantId: admin.tenantId,
      ownerId: adminId,
      name: "Webhook 演示机器人",
      type: "webhook",
      agentId: agent.id,
      enabled: false,
      settings: { replyUrl: "https://example.com/agentfair/reply" },
      secretsEnc: "",
    },
  ]);
};
