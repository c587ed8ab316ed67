// npm run typecheck: each TypeScript project checked by its own tsc, two at a time (tsc uses one
// core; the largest first, so the small ones fill in beside it).
import { spawn } from "node:child_process";

const projects = ["apps/server", "apps/web", "e2e", "packages/contracts"];
const check = (project) =>
  new Promise((resolve) => spawn("npx", ["tsc", "-p", project], { stdio: "inherit" }).on("exit", (code) => resolve(code === 0)));

let failed = false;
const lane = async () => {
  for (let p = projects.shift(); p; p = projects.shift()) if (!(await check(p))) failed = true;
};
await Promise.all([lane(), lane()]);
process.exit(failed ? 1 : 0);
