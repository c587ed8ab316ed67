// Starts the platform for e2e: its own web build and a fresh PGlite data folder with the demo seed,
// so several e2e runs (different E2E_PORTs) never share files.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";

const dataDir = process.env.E2E_DATA ?? ".tmp/e2e";
// npm test builds the web app once for all servers (E2E_WEB_DIST); a lone run builds its own copy.
const webDist = process.env.E2E_WEB_DIST ?? `${dataDir}-web`;
fs.rmSync(dataDir, { recursive: true, force: true });
if (!process.env.E2E_WEB_DIST) {
  execFileSync("npx", ["vite", "build", "--outDir", `../../${webDist}`, "--emptyOutDir", "--logLevel", "warn"], {
    cwd: "apps/web",
    stdio: "inherit",
  });
}
const child = spawn("npx", ["tsx", "apps/server/src/main.ts"], {
  stdio: "inherit",
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    WEB_DIST: webDist,
    SEED_DEMO: "1",
    // the specs add the local test models they need; the bare platform must have none
    OFFLINE_MODEL: "0",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    HOST: "127.0.0.1",
  },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
