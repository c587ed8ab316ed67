import type { Db } from "../db/client.ts";

/**
 * One area's part of the demo data (agents, plans, ...), run after the demo accounts exist.
 * Its own file so that the modules' seeds and the demo that lists them do not import each other.
 */
export type DemoSeed = (db: Db, ctx: { users: Record<string, string> }) => Promise<void>;
