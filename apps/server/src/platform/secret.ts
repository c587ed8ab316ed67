import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { platformSettings } from "../db/schema/index.ts";

/** SECRET_KEY, or one generated on first start and kept in the database for every process. */
export async function loadSecret(config: Config, db: Db): Promise<string> {
  if (config.SECRET_KEY) return config.SECRET_KEY;
  await db
    .insert(platformSettings)
    .values({ key: "secret_key", value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select().from(platformSettings).where(eq(platformSettings.key, "secret_key"));
  return row.value;
}
