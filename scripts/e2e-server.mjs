// Starts the platform for e2e: its own web build and a fresh PGlite data folder with the demo seed,
// so several e2e runs (different E2E_PORTs) never share files.
import { execFileSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const dataDir = process.env.E2E_DATA ?? ".tmp/e2e";
// npm test builds the web app once for all servers (E2E_WEB_DIST); a lone run builds its own copy.
const webDist = process.env.E2E_WEB_DIST ?? `${dataDir}-web`;
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
fs.cpSync(path.join(migratedTemplate(), "pglite"), path.join(dataDir, "pglite"), { recursive: true });
if (!process.env.E2E_WEB_DIST) {
  execFileSync("npx", ["vite", "build", "--outDir", `../../${webDist}`, "--emptyOutDir", "--logLevel", "warn"], {
    cwd: "apps/web",
    stdio: "inherit",
  });
}
const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
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

/**
 * A migrated PGlite data folder to start from, named after the migrations. Migrating a fresh PGlite
 * costs about 8 s of CPU here and the e2e run starts three platforms at once: the first to come
 * migrates one folder (a lock folder keeps the others waiting), and each copies it.
 */
function migratedTemplate() {
  const folder = "apps/server/src/db/migrations";
  const hash = crypto.createHash("sha256");
  for (const file of fs.readdirSync(folder, { recursive: true }).sort()) {
    const full = path.join(folder, String(file));
    if (fs.statSync(full).isFile()) hash.update(`${file}\0`).update(fs.readFileSync(full));
  }
  const template = `.tmp/e2e-template-${hash.digest("hex").slice(0, 16)}`;
  const ready = path.join(template, "ready");
  if (fs.existsSync(ready)) return template;
  const lock = `${template}.lock`;
  fs.mkdirSync(".tmp", { recursive: true });
  let mine = false;
  try {
    fs.mkdirSync(lock, { recursive: false });
    mine = true;
  } catch {
    // Another platform is migrating it, or one was killed half-way (a lock older than two minutes).
    if (Date.now() - fs.statSync(lock).mtimeMs > 120_000) {
      fs.rmSync(lock, { recursive: true, force: true });
      return migratedTemplate();
    }
  }
  if (mine) {
    try {
      for (const old of fs.readdirSync(".tmp").filter((f) => /^e2e-template-[0-9a-f]+$/.test(f))) {
        fs.rmSync(path.join(".tmp", old), { recursive: true, force: true });
      }
      execFileSync(
        process.execPath,
        [
          "--import",
          "tsx",
          "--input-type=module",
          "-e",
          `const { openDatabase } = await import("./apps/server/src/db/client.ts");
           const database = await openDatabase({ dataDir: ${JSON.stringify(template)} });
           await database.close();`,
        ],
        { stdio: "inherit" },
      );
      fs.writeFileSync(ready, "");
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
    return template;
  }
  const until = Date.now() + 120_000;
  while (!fs.existsSync(ready)) {
    if (!fs.existsSync(lock)) return migratedTemplate();
    if (Date.now() > until) throw new Error(`no migrated template after 2 minutes: ${template}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  return template;
}
