import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rpaRobots, users } from "../../db/schema/index.ts";
import type { DemoSeed } from "../../seed/demo-seed.ts";

/**
 * A demo robot of the default tenant. Its targets are local addresses where nothing runs yet:
 * its live video shows the pull error and its remote desktop the reconnect message until an
 * administrator points it at a real VNC server and stream on /robots (README: RPA).
 */
export const seedRpa: DemoSeed = async (db: Db, { users: byName }) => {
  const adminId = byName.admin;
  if (!adminId) return;
  const [admin] = await db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, adminId));
  if (!admin) return;
  await db.insert(rpaRobots).values({
    tenantId: admin.tenantId,
    robotName: "演示机器人",
    robotType: "desktop",
    vncHost: "127.0.0.1",
    vncPort: 5999,
    streamUrl: "http://127.0.0.1:8000/live/demo.flv",
    livePolicy: 0,
    allowPrivate: true,
    createdBy: adminId,
  });
};
