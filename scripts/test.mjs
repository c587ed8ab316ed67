// npm test: typecheck, lint, unit + integration (PGlite, and PostgreSQL when one answers), e2e.
// Ends with the line "N passed, N failed".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { ensureBrowser, ensureClusterTools, ensureLiveTools, ensureNodeModules } from "./setup.mjs";

ensureNodeModules();
ensureBrowser();
ensureLiveTools();
ensureClusterTools();
fs.mkdirSync(".tmp/screens", { recursive: true });

let passed = 0;
let failed = 0;
const results = [];
const failures = [];
const step = (name, cmd, args, env = {}, cwd = ".") => {
  console.log(`\n> ${name}: ${cmd} ${args.join(" ")}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: "inherit", cwd, env: { ...process.env, ...env } });
  results.push({ name, ok: r.status === 0, seconds: Math.round((Date.now() - started) / 1000) });
  return r.status === 0;
};
const counted = (ok) => (ok ? passed++ : failed++);
const fromJson = (file, pick) => {
  try {
    return pick(JSON.parse(fs.readFileSync(file, "utf8")));
  } catch {
    return null;
  }
};

counted(step("typecheck", "npm", ["run", "typecheck", "--silent"]));
counted(step("lint", "npx", ["biome", "check", "."]));

const vitest = (name, args, env) => {
  const out = `.tmp/vitest-${name}.json`;
  fs.rmSync(out, { force: true });
  const ok = step(name, "npx", ["vitest", "run", ...args, "--reporter=default", "--reporter=json", `--outputFile=${out}`], env);
  const counts = fromJson(out, (j) => [j.numPassedTests, j.numFailedTests]);
  fromJson(out, (j) => listFailures(name, j));
  if (!counts) return counted(false);
  passed += counts[0];
  // A suite that fails to load has no failed test but still fails the step.
  failed += counts[1] || (ok ? 0 : 1);
};

// Two files at a time on PGlite (vitest's default is one on two cores): PGlite's database runs in
// the worker's own thread, so one worker left a core idle (two cost 7 % more CPU and save nearly half
// the step; three gain nothing more). On PostgreSQL the queries run in the server and workers wait for
// them: three files at a time (163 → 127 s).
vitest("unit and integration (PGlite)", ["--maxWorkers", "2"], { TEST_DATABASE_URL: "" });

const pgUrl = process.env.TEST_DATABASE_URL || ((await answers(5432)) ? "postgres://postgres@127.0.0.1:5432/postgres" : "");
// The files that open a database (the harness's app, a cluster) run again on PostgreSQL; the others
// (parsers, the sandbox, OCR, ...) never touch one and ran in the PGlite pass.
const databaseFiles = fs
  .readdirSync("apps/server/src", { recursive: true })
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => `apps/server/src/${f}`)
  .filter((f) => /test\/(harness|cluster)\.ts|TEST_DATABASE_URL/.test(fs.readFileSync(f, "utf8")));
if (pgUrl) vitest("integration (PostgreSQL)", ["--project", "server", "--maxWorkers", "3", ...databaseFiles], { TEST_DATABASE_URL: pgUrl });
else console.log("\n> no PostgreSQL on 127.0.0.1:5432: the PostgreSQL run of the integration suite is skipped");

const e2eOut = ".tmp/e2e-report.json";
fs.rmSync(e2eOut, { force: true });
const webDist = ".tmp/e2e-web";
const built = step(
  "web build",
  "npx",
  ["vite", "build", "--outDir", `../../${webDist}`, "--emptyOutDir", "--logLevel", "warn"],
  {},
  "apps/web",
);
counted(built);
const e2eOk = built && step("e2e (Chromium)", "npx", ["playwright", "test", "-c", "e2e/playwright.config.ts"], { E2E_WEB_DIST: webDist });
const e2e = fromJson(e2eOut, (j) => [j.stats.expected + j.stats.flaky, j.stats.unexpected]);
fromJson(e2eOut, (j) => e2eFailures(j.suites));
if (e2e) {
  passed += e2e[0];
  failed += e2e[1] || (e2eOk ? 0 : 1);
} else counted(false);

// CI keeps only the end of the output: what failed is repeated here, next to the counts.
if (failures.length) {
  console.log("\nfailed:");
  for (const f of failures) console.log(`  ${f}`);
}
console.log("\nsteps:");
for (const r of results) console.log(`  ${r.ok ? "ok  " : "FAIL"} ${r.name} (${r.seconds}s)`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

function firstLine(text) {
  return stripVTControlCharacters(String(text ?? ""))
    .split("\n")
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 300);
}

function listFailures(step, report) {
  for (const file of report.testResults ?? []) {
    const tests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of tests) failures.push(`${step}: ${path.relative(".", file.name)} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (!tests.length && file.status === "failed") failures.push(`${step}: ${path.relative(".", file.name)}: ${firstLine(file.message)}`);
  }
}

function e2eFailures(suites = []) {
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const errors = (test.results ?? []).filter((r) => r.error).map((r) => firstLine(r.error.message));
        if (test.status === "unexpected") failures.push(`e2e: ${spec.file}:${spec.line} ${spec.title}: ${errors.at(-1)}`);
        else if (test.status === "flaky") failures.push(`e2e (passed on retry): ${spec.file}:${spec.line} ${spec.title}: ${errors[0]}`);
      }
    }
    e2eFailures(suite.suites);
  }
}

function answers(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port, timeout: 1000 });
    socket.on("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
    socket.on("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}
