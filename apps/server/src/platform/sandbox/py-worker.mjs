// Runs plugin Python in Pyodide (CPython compiled to WebAssembly) inside a worker thread, offline:
// the standard library only, loaded from the npm package. Python's files are Pyodide's in-memory
// file system (the host's files are not mounted); there are no processes or sockets in WebAssembly.
// Pyodide's bridges to JavaScript (the `js` module, `pyodide.code.run_js`, the FS and package
// loaders) are removed, and this worker's JavaScript globals that reach the host (process, fetch,
// eval, Function, ...) are taken away before any plugin runs, so even code that found a way back
// into JavaScript finds nothing there. The WebAssembly heap is capped, so an allocation bomb ends
// in MemoryError instead of eating the host's memory. When the plugin's owner enabled network
// access, Python gets a blocking `fetch(url, method, headers, body)` that the host answers through
// the platform's safe fetch: the worker waits on a shared buffer (Atomics.wait) for the answer.
import { fileURLToPath } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { loadPyodide } from "pyodide";
import { lockdown } from "./lockdown.mjs";

const HEAP_BYTES = (workerData?.heapMb ?? 256) * 1024 * 1024;
const MAX_LOGS = 100;
const MAX_LOG_CHARS = 2000;
let logs = [];
const log = (line) => {
  if (logs.length < MAX_LOGS) logs.push(String(line).slice(0, MAX_LOG_CHARS));
};

// Emscripten grows its heap through Memory.prototype.grow: past the cap the growth fails and
// Python's allocator raises MemoryError.
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (delta) {
  if (this.buffer.byteLength + delta * 65536 > HEAP_BYTES) throw new RangeError("sandbox memory limit");
  return grow.call(this, delta);
};

// Pyodide finds its files from its stack trace unless told: under a source-mapping loader (tsx)
// that points at the wrong place, so the package folder is given.
const indexURL = fileURLToPath(new URL(".", import.meta.resolve("pyodide")));
// The answer of a host fetch: [state, length] then the JSON bytes. 0 waiting, 1 answered.
const FETCH_BYTES = (workerData?.fetchMaxBytes ?? 1024 * 1024) * 2 + 64 * 1024;
const fetchShared = new SharedArrayBuffer(8 + FETCH_BYTES);
const fetchState = new Int32Array(fetchShared, 0, 2);
const fetchData = new Uint8Array(fetchShared, 8);
let network = false;
let deadline = 0;
let fetchSeq = 0;

/** Called from Python (strings in, a JSON string out); refuses unless this call may use the network. */
function hostFetch(url, method, headersJson, body) {
  if (!network) return JSON.stringify({ ok: false, error: "network access is not enabled for this plugin" });
  const wait = deadline - Date.now();
  if (wait <= 0) return JSON.stringify({ ok: false, error: "the call timed out" });
  Atomics.store(fetchState, 0, 0);
  let headers = {};
  try {
    headers = JSON.parse(String(headersJson || "{}"));
  } catch {
    // no headers
  }
  const request = { url: String(url), method: String(method || "GET").toUpperCase(), headers, body: body == null ? null : String(body) };
  parentPort.postMessage({ type: "fetch", reqId: ++fetchSeq, request, shared: fetchShared });
  if (Atomics.wait(fetchState, 0, 0, wait) === "timed-out") return JSON.stringify({ ok: false, error: "the call timed out" });
  const length = Atomics.load(fetchState, 1);
  return new TextDecoder().decode(fetchData.slice(0, length));
}

const py = await loadPyodide({ indexURL, stdout: log, stderr: log, checkAPIVersion: true });

const setup = py.globals.get("dict")();
setup.set("_host_fetch", hostFetch);
py.runPython(
  `
import sys, builtins, importlib.abc, json

BLOCKED = ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip", "ctypes", "_ctypes",
           "subprocess", "socket", "_socket", "ssl", "_ssl", "multiprocessing",
           "webbrowser", "urllib.request", "http.client", "ftplib", "smtplib")

def _blocked(name):
    return any(name == b or name.startswith(b + ".") for b in BLOCKED)

class _Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if _blocked(name):
            raise ImportError(f"module '{name}' is not available in the sandbox")
        return None

for _name in list(sys.modules):
    if _blocked(_name):
        del sys.modules[_name]
sys.meta_path.insert(0, _Block())

# Emscripten runs system() through the host's shell under Node: gone, with every process call.
import os, posix
for _name in ("system", "popen", "fork", "forkpty", "execv", "execve", "spawnv", "spawnve", "posix_spawn", "posix_spawnp", "kill", "killpg"):
    for _mod in (os, posix):
        if hasattr(_mod, _name):
            delattr(_mod, _name)

class Response:
    """What fetch returns: status, ok, headers (lower-case names), text and json()."""
    def __init__(self, status, headers, text):
        self.status = status
        self.status_code = status
        self.ok = 200 <= status < 300
        self.headers = headers
        self.text = text
    def json(self):
        return json.loads(self.text)
    def __repr__(self):
        return f"<Response {self.status}>"

def _make_fetch(host_fetch):
    def fetch(url, method="GET", headers=None, body=None, json_body=None):
        """GET or send to a host the plugin's owner listed; answers through the platform's safe fetch."""
        headers = dict(headers or {})
        if json_body is not None:
            body = json.dumps(json_body, ensure_ascii=False)
            headers.setdefault("content-type", "application/json")
        elif isinstance(body, (dict, list)):
            body = json.dumps(body, ensure_ascii=False)
            headers.setdefault("content-type", "application/json")
        answer = json.loads(host_fetch(str(url), str(method), json.dumps(headers), None if body is None else str(body)))
        if not answer.get("ok"):
            raise ConnectionError(answer.get("error") or "fetch failed")
        r = answer["response"]
        return Response(int(r["status"]), r["headers"], r["body"])
    return fetch

_fetch = _make_fetch(_host_fetch)
del _host_fetch

def run(code, params_json):
    ns = {"__name__": "__plugin__", "__builtins__": builtins, "fetch": _fetch}
    exec(compile(code, "plugin.py", "exec"), ns)
    main = ns.get("main")
    if not callable(main):
        raise Exception("the code must define main(params)")
    return json.dumps(main(json.loads(params_json)), ensure_ascii=False, default=str)
`,
  { globals: setup },
);
const runner = setup.get("run");

// Nothing a plugin could reach from here leads back to the host.
for (const name of [
  "mountNodeFS",
  "mountNativeFS",
  "loadPackage",
  "loadPackagesFromImports",
  "registerJsModule",
  "pyimport",
  "runPythonAsync",
])
  py[name] = () => {
    throw new Error("not available in the sandbox");
  };
if (py.FS) {
  py.FS.mount = () => {
    throw new Error("not available in the sandbox");
  };
  if (py.FS.filesystems) for (const fs of Object.keys(py.FS.filesystems)) if (fs !== "MEMFS") delete py.FS.filesystems[fs];
}
lockdown();
// A plugin that reached JavaScript could leave a timer behind to run Python after its call returned,
// past the time limit; this worker schedules nothing itself (it waits on messages and Atomics).
for (const name of ["setTimeout", "setInterval", "setImmediate", "queueMicrotask"]) {
  Object.defineProperty(globalThis, name, {
    value: () => {
      throw new Error("not available in the sandbox");
    },
    configurable: false,
    writable: false,
  });
}

parentPort.on("message", (msg) => {
  if (msg.type !== "run") return;
  logs = [];
  let answer;
  try {
    network = !!msg.network;
    deadline = Date.now() + (msg.timeoutMs ?? 10_000);
    answer = { ok: true, result: runner(msg.code, msg.params) };
  } catch (err) {
    answer = { ok: false, error: pythonError(err) };
  }
  network = false;
  parentPort.postMessage({ type: "done", ...answer, logs });
});
parentPort.postMessage({ type: "ready" });

/** The exception line of a Python traceback (the rest names the sandbox's own frames). */
function pythonError(err) {
  const text = String(err?.message ?? err).trim();
  const lines = text.split("\n").filter(Boolean);
  return lines[lines.length - 1] ?? "error";
}
