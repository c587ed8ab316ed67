// npm start: install what is missing, build the web app, start the whole platform on one port.
import { spawn } from "node:child_process";
import { ensureNodeModules, ensureWebBuild } from "./setup.mjs";

ensureNodeModules();
ensureWebBuild(true);
const child = spawn("npx", ["tsx", "apps/server/src/main.ts"], { stdio: "inherit", env: process.env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
