// Installs what is missing: npm packages, and (for tests) Debian's chromium-headless-shell, fonts-noto-cjk, xvfb, x11vnc, ffmpeg and nginx.
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
  if (!fs.existsSync(process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium-headless-shell")) missing.push("chromium-headless-shell");
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

/**
 * The RPA e2e runs a real VNC server (Xvfb + x11vnc, a window from xmessage) and publishes a real
 * FLV stream (ffmpeg).
 * Guarded: when they cannot be installed, those specs skip with a message instead of failing.
 */
export function ensureLiveTools() {
  const missing = [];
  if (!quiet("command -v Xvfb")) missing.push("xvfb");
  if (!quiet("command -v x11vnc")) missing.push("x11vnc");
  if (!quiet("command -v ffmpeg")) missing.push("ffmpeg");
  if (!quiet("command -v xmessage")) missing.push("x11-utils");
  if (!quiet("command -v xsetroot")) missing.push("x11-xserver-utils");
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `> missing Debian packages for the RPA e2e: ${missing.join(" ")} (sudo apt-get install ${missing.join(" ")}); those specs skip`,
    );
    return;
  }
  console.log(`> installing ${missing.join(", ")}`);
  try {
    run("apt-get update -qq");
    run(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${missing.join(" ")}`);
  } catch {
    console.error(`> could not install ${missing.join(" ")}: the RPA e2e specs that need them skip`);
  }
}

/**
 * The cluster tests (apps/server/src/cluster.test.ts, bench/load, bench/faults) put a real nginx
 * in front of two platform processes. Guarded: without it those tests skip with a message.
 */
export function ensureClusterTools() {
  if (quiet("test -x /usr/sbin/nginx") || quiet("command -v nginx")) return;
  if (process.getuid?.() !== 0) {
    console.error("> missing Debian package for the cluster tests: nginx (sudo apt-get install nginx); they skip");
    return;
  }
  console.log("> installing nginx");
  try {
    run("apt-get update -qq");
    // policy-rc.d or not, the packaged service is never needed: the tests start nginx with their own config.
    run("DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx");
  } catch {
    console.error("> could not install nginx: the cluster tests skip");
  }
}

export function ensureWebBuild(force = false) {
  if (!force && fs.existsSync("apps/web/dist/index.html")) return;
  console.log("> building the web app");
  run("npm run build");
}
