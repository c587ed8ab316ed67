// Starts the platform for e2e on a fresh PGlite data folder with the demo seed.
import { spawn } from "node:child_process";
import fs from "node:fs";

const dataDir = process.env.E2E_DATA ?? ".tmp/e2e";
fs.rmSync(dataDir, { recursive: true, force: true });
const child = spawn("npx", ["tsx", "apps/server/src/main.ts"], {
  stdio: "inherit",
  env: { ...process.env, DATA_DIR: dataDir, SEED_DEMO: "1", LOG_LEVEL: process.env.LOG_LEVEL ?? "warn", HOST: "127.0.0.1" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
