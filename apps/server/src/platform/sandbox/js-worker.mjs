// Runs plugin JavaScript in QuickJS (compiled to WebAssembly) inside a worker thread. The plugin's
// code sees only the ECMAScript built-ins, `console` and, when its owner enabled it, a `fetch` that
// asks the host (which uses the platform's safe fetch). No Node object, module loader or file system
// exists inside QuickJS. Each call gets a fresh runtime with its own memory limit.
import { parentPort, workerData } from "node:worker_threads";
import { getQuickJS, shouldInterruptAfterDeadline } from "quickjs-emscripten";

const MEMORY_BYTES = (workerData?.memoryMb ?? 64) * 1024 * 1024;
// QuickJS counts its own allocations, not all of them: the WebAssembly heap is capped too, so no
// plugin can make this thread take more of the host's memory than that.
const HEAP_BYTES = MEMORY_BYTES * 2 + 32 * 1024 * 1024;
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (delta) {
  if (this.buffer.byteLength + delta * 65536 > HEAP_BYTES) throw new RangeError("sandbox memory limit");
  return grow.call(this, delta);
};
const QuickJS = await getQuickJS();
const MAX_LOGS = 100;
const MAX_LOG_CHARS = 2000;

const PRELUDE = `
globalThis.__response = (status, headers, body) => ({
  status, ok: status >= 200 && status < 300, headers: JSON.parse(headers),
  text: async () => body, json: async () => JSON.parse(body),
});`;

let fetchSeq = 0;
const fetchWaiters = new Map();

parentPort.on("message", (msg) => {
  if (msg.type === "run") void run(msg);
  else if (msg.type === "fetched") {
    const waiter = fetchWaiters.get(msg.reqId);
    fetchWaiters.delete(msg.reqId);
    waiter?.(msg);
  }
});
parentPort.postMessage({ type: "ready" });

function describe(vm, handle) {
  const value = vm.dump(handle);
  if (value && typeof value === "object" && "message" in value) return `${value.name ?? "Error"}: ${value.message}`;
  return typeof value === "string" ? value : JSON.stringify(value);
}

async function run({ code, params, network, timeoutMs }) {
  const logs = [];
  let broken = false;
  const rt = QuickJS.newRuntime();
  rt.setMemoryLimit(MEMORY_BYTES);
  rt.setMaxStackSize(512 * 1024);
  // The host kills the worker at the deadline anyway; this stops a busy loop a little earlier, cleanly.
  rt.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + (timeoutMs ?? 5000)));
  const vm = rt.newContext();
  let answer;
  try {
    const log = vm.newFunction("log", (...args) => {
      if (logs.length < MAX_LOGS)
        logs.push(
          args
            .map((a) => describe(vm, a))
            .join(" ")
            .slice(0, MAX_LOG_CHARS),
        );
    });
    const consoleObj = vm.newObject();
    for (const name of ["log", "info", "warn", "error", "debug"]) vm.setProp(consoleObj, name, log);
    vm.setProp(vm.global, "console", consoleObj);
    consoleObj.dispose();
    log.dispose();
    vm.unwrapResult(vm.evalCode(PRELUDE, "prelude.js")).dispose();
    if (network) installFetch(vm, rt);
    vm.setProp(vm.global, "__params", vm.newString(params));

    const loaded = vm.evalCode(code, "plugin.js");
    if (loaded.error) {
      answer = { ok: false, error: describe(vm, loaded.error) };
      loaded.error.dispose();
    } else {
      loaded.value.dispose();
      const started = vm.evalCode(
        `(async () => {
          if (typeof main !== "function") throw new Error("the code must define main(params)");
          const out = await main(JSON.parse(__params));
          return out === undefined ? "null" : JSON.stringify(out);
        })()`,
        "call.js",
      );
      const promise = vm.unwrapResult(started);
      const settled = vm.resolvePromise(promise);
      promise.dispose();
      let done = false;
      settled.then(() => {
        done = true;
      });
      while (!done) {
        const jobs = rt.executePendingJobs();
        if (jobs.error) {
          answer = { ok: false, error: describe(vm, jobs.error) };
          jobs.error.dispose();
          break;
        }
        // Let fetch answers and the settled promise's callback arrive.
        await new Promise((r) => setImmediate(r));
      }
      if (!answer) {
        const result = await settled;
        if (result.error) {
          answer = { ok: false, error: describe(vm, result.error) };
          result.error.dispose();
        } else {
          const text = vm.getString(result.value);
          result.value.dispose();
          answer = text === undefined ? { ok: false, error: "the result is not JSON-serialisable" } : { ok: true, result: text };
        }
      }
    }
  } catch (err) {
    answer = { ok: false, error: String(err?.message ?? err) };
    // The interpreter itself failed (e.g. its heap could not grow): this worker is not reused.
    broken = true;
  }
  for (const reqId of fetchWaiters.keys()) fetchWaiters.delete(reqId);
  try {
    vm.dispose();
    rt.dispose();
  } catch {
    // A leaked handle cannot hurt the next call: it gets a new runtime. The worker goes on.
  }
  parentPort.postMessage({ type: "done", ...answer, logs });
  if (broken) process.exit(1);
}

function installFetch(vm, rt) {
  const fn = vm.newFunction("fetch", (urlHandle, initHandle) => {
    const deferred = vm.newPromise();
    try {
      const url = vm.getString(urlHandle);
      const init = initHandle ? (vm.dump(initHandle) ?? {}) : {};
      const headers = {};
      for (const [k, v] of Object.entries(init.headers ?? {})) headers[String(k)] = String(v);
      const request = {
        url,
        method: String(init.method ?? "GET").toUpperCase(),
        headers,
        body: init.body == null ? null : String(init.body),
      };
      const reqId = ++fetchSeq;
      fetchWaiters.set(reqId, (msg) => {
        if (!deferred.alive) return;
        if (msg.ok) {
          const make = vm.getProp(vm.global, "__response");
          const args = [
            vm.newNumber(msg.response.status),
            vm.newString(JSON.stringify(msg.response.headers)),
            vm.newString(msg.response.body),
          ];
          const made = vm.callFunction(make, vm.undefined, ...args);
          for (const a of args) a.dispose();
          make.dispose();
          if (made.error) {
            deferred.reject(made.error);
            made.error.dispose();
          } else {
            deferred.resolve(made.value);
            made.value.dispose();
          }
        } else {
          const err = vm.newError(msg.error);
          deferred.reject(err);
          err.dispose();
        }
        deferred.dispose();
        rt.executePendingJobs();
      });
      parentPort.postMessage({ type: "fetch", reqId, request });
    } catch (err) {
      const e = vm.newError(String(err?.message ?? err));
      deferred.reject(e);
      e.dispose();
      deferred.dispose();
    }
    return deferred.handle;
  });
  vm.setProp(vm.global, "fetch", fn);
  fn.dispose();
}
