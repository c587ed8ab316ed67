// Generates the next migration from src/db/schema: npm run db:generate -- <name>
// Before the first release, `--reset` rebuilds the single baseline migration 0000_init instead.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const reset = process.argv.includes("--reset");
const name = reset ? "init" : (process.argv.slice(2).find((a) => !a.startsWith("--")) ?? "change");
if (reset) fs.rmSync(new URL("../src/db/migrations", import.meta.url), { recursive: true, force: true });
execFileSync("npx", ["drizzle-kit", "generate", "--name", name], { stdio: "inherit" });
