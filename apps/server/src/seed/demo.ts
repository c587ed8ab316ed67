import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { tenants, userGroups, users } from "../db/schema/index.ts";
import { hashPassword } from "../platform/passwords.ts";
import { seedAgents } from "../modules/agents/agents.seed.ts";
import type { TenantsService } from "../modules/tenants/tenants.service.ts";
import { billingDemoSeed } from "../modules/billing/billing.seed.ts";
import type { DemoSeed } from "./demo-seed.ts";
import { seedTasks } from "../modules/tasks/tasks.seed.ts";
import { seedTools } from "../modules/tools/tools.seed.ts";
import { seedKnowledge } from "../modules/knowledge/knowledge.seed.ts";
import { seedWorkflows } from "../modules/workflows/workflows.seed.ts";
import { seedDesigner } from "../modules/designer/designer.seed.ts";
import { seedCards } from "../modules/cards/cards.seed.ts";
import { seedRules } from "../modules/rules/rules.seed.ts";
import { seedRpa } from "../modules/rpa/rpa.seed.ts";
import { seedInsight } from "../modules/insight/insight.seed.ts";
import { seedRobots } from "../modules/robots/robots.seed.ts";

export const DEMO_PASSWORD = "demo1234";
export const DEMO_ACCOUNTS = [
  { username: "admin", tenant: "", note: "administrator" },
  { username: "member", tenant: "", note: "PER_FLAGSHIP_MONTHLY member" },
  { username: "free", tenant: "", note: "FREE member" },
  { username: "acme", tenant: "acme", note: "administrator of tenant acme (its members and models)" },
  { username: "acme_li", tenant: "acme", note: "member of tenant acme" },
];

/**
 * Demo data for a newcomer, written once into an empty database. Each area has its own seed
 * (agents, plans, ...); they run in order after the accounts.
 */
const demoSeeds: DemoSeed[] = [
  billingDemoSeed,
  seedAgents,
  seedTools,
  seedKnowledge,
  seedWorkflows,
  seedCards,
  seedDesigner,
  seedRules,
  seedRpa,
  seedInsight,
  seedRobots,
  seedTasks,
];

export async function seedDemo(db: Db, tenantsService: TenantsService): Promise<boolean> {
  const existing = await db.select({ id: users.id }).from(users).limit(1);
  if (existing.length > 0) return false;
  const defaultTenant = await tenantsService.ensureDefault();
  const [acme] = await db
    .insert(tenants)
    .values({
      domain: "acme",
      name: "Acme 智能科技",
      logo: "/tenant-logos/acme.svg",
      primaryColor: "#d4380d",
      backgroundColor: "#fff2e8",
      recordFiling: "沪ICP备2025000042号-1",
      // The demo tenant takes sign-ups, so a newcomer can try a tenant's login and registration.
      openRegistration: true,
    })
    .onConflictDoNothing()
    .returning();
  const acmeId = acme?.id ?? (await db.select().from(tenants).where(eq(tenants.domain, "acme")))[0].id;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const yearAhead = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000);
  const rows = await db
    .insert(users)
    .values([
      { tenantId: defaultTenant.id, username: "admin", nickname: "管理员", email: "admin@agentfair.local", passwordHash },
      {
        tenantId: defaultTenant.id,
        username: "member",
        nickname: "旗舰会员",
        email: "member@agentfair.local",
        passwordHash,
        memberLevel: "PER_FLAGSHIP_MONTHLY",
        memberEndAt: yearAhead,
      },
      { tenantId: defaultTenant.id, username: "free", nickname: "免费用户", email: "free@agentfair.local", passwordHash },
      // The tenant's administrator: manages acme's own models on /acme/models.
      { tenantId: acmeId, username: "acme", nickname: "Acme 员工", email: "acme@acme.local", passwordHash, tenantRole: "admin" },
    ])
    .returning({ id: users.id, username: users.username });
  const byName = Object.fromEntries(rows.map((r) => [r.username, r.id]));
  // Two plain members of acme, so that its administrator's members page (/acme/tenant/members) shows
  // one of each state: one who signed in two days ago, and one whose account the administrator stopped.
  const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 60 * 60 * 1000);
  await db.insert(users).values([
    { tenantId: acmeId, username: "acme_li", nickname: "李娜", email: "li.na@acme.local", passwordHash, lastLoginAt: daysAgo(2) },
    {
      tenantId: acmeId,
      username: "acme_wang",
      nickname: "王强",
      email: "wang.qiang@acme.local",
      passwordHash,
      lastLoginAt: daysAgo(30),
      disabledAt: daysAgo(7),
    },
  ]);
  // The demo accounts count as used before: the first-login survey is for new registrations.
  await db.update(users).set({ loginCount: 1, surveyOutcome: "skipped" });
  await db.insert(userGroups).values({ userId: byName.acme, groupName: "Acme 研发部" });
  for (const seed of demoSeeds) await seed(db, { users: byName });
  return true;
}
