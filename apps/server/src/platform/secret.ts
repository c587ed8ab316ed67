import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
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

/** Secrets at rest (model API keys, plugin credentials): AES-256-GCM under a key derived from the platform secret per purpose. */
const keyOf = (secret: string, purpose: string) => createHash("sha256").update(`${purpose}:${secret}`).digest();

export function sealSecret(secret: string, purpose: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secret, purpose), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url")).join(".");
}

export function openSecret(secret: string, purpose: string, stored: string): string {
  const [iv, tag, data] = stored.split(".").map((p) => Buffer.from(p, "base64url"));
  const decipher = createDecipheriv("aes-256-gcm", keyOf(secret, purpose), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
}
