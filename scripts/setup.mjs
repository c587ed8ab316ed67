// Installs what is missing: npm packages, and (for tests) Debian's chromium and fonts-noto-cjk.
import { execSync, spawnSync } from "node:child_process";
import fs from "node:fs";

const run = (cmd) => execSync(cmd, { stdio: "inherit" });
const quiet = (cmd) => spawnSync("sh", ["-c", cmd], { stdio: "ignore" }).status === 0;

export function ensureNodeModules() {
  const stamp = "node_modules/.package-lock.json";
  const fresh = fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= fs.statSync("package-lock.json").mtimeMs;
  if (fresh) return;
  console.log("> installing npm packages");
  // `npm install` rather than `npm ci`: npm 11 leaves optional platform packages out of the lock file.
  run("npm install --no-audit --no-fund");
}

export function ensureBrowser() {
  const missing = [];
  if (!fs.existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium")) missing.push("chromium");
  if (!quiet("fc-list | grep -qi 'Noto Sans CJK'")) missing.push("fonts-noto-cjk");
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    console.error(`> missing Debian packages: ${missing.join(" ")} (install them: sudo apt-get install ${missing.join(" ")})`);
    return;
  }
  console.log(`> installing ${missing.join(", ")}`);
  run("apt-get update -qq");
  run(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(" ")}`);
}

export function ensureWebBuild(force = false) {
  if (!force && fs.existsSync("apps/web/dist/index.html")) return;
  console.log("> building the web app");
  run("npm run build");
}
