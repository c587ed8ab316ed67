// Takes away, inside a sandbox worker, every Node API that reaches the host: processes, files,
// sockets, other threads, native code, code from strings. Called once the interpreter has loaded
// (it reads its own files while starting), before any plugin code runs. Builtin modules are
// per-thread in Node, so this changes nothing in the server's own thread. The interpreter looks
// these functions up when it calls them (e.g. Emscripten's system() → child_process.spawnSync),
// so it meets the denials too.
import childProcess from "node:child_process";
import dgram from "node:dgram";
import dns from "node:dns";
import fs from "node:fs";
import fsPromises from "node:fs/promises";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import inspector from "node:inspector";
import moduleApi from "node:module";
import net from "node:net";
import tls from "node:tls";
import v8 from "node:v8";
import vm from "node:vm";
import workerThreads from "node:worker_threads";

const denied = () => {
  throw new Error("not available in the sandbox");
};

function denyAll(mod, keep = []) {
  for (const key of Object.keys(mod)) {
    if (keep.includes(key) || typeof mod[key] !== "function") continue;
    try {
      mod[key] = denied;
    } catch {
      // a read-only export: nothing reaches it through this module object
    }
  }
}

/**
 * What `Function` becomes: it builds nothing, but keeps `Function.prototype`, which the interpreter
 * reads to call host functions (Pyodide calls them through `Function.prototype.apply`).
 */
function deniedFunction() {
  throw new Error("not available in the sandbox");
}
Object.defineProperty(deniedFunction, "prototype", { value: Function.prototype, writable: false });

export function lockdown() {
  const syncBuiltinESMExports = moduleApi.syncBuiltinESMExports;
  for (const mod of [childProcess, dgram, dns, fs, fsPromises, http, http2, https, inspector, moduleApi, net, tls, v8, vm]) denyAll(mod);
  denyAll(workerThreads, ["isMainThread"]);
  syncBuiltinESMExports();
  for (const key of ["binding", "_linkedBinding", "dlopen", "kill", "abort", "chdir", "setuid", "setgid", "getBuiltinModule"]) {
    try {
      process[key] = denied;
    } catch {
      // not defined in this Node
    }
  }
  for (const name of [
    "process",
    "require",
    "module",
    "fetch",
    "WebSocket",
    "XMLHttpRequest",
    "EventSource",
    "Worker",
    "importScripts",
    "eval",
    "Function",
  ]) {
    try {
      Object.defineProperty(globalThis, name, {
        value: name === "eval" ? denied : name === "Function" ? deniedFunction : undefined,
        configurable: false,
        writable: false,
      });
    } catch {
      // not a property here
    }
  }
  for (const fn of [() => {}, async () => {}, function* () {}, async function* () {}]) {
    Object.defineProperty(Object.getPrototypeOf(fn), "constructor", { value: denied, configurable: false, writable: false });
  }
}
