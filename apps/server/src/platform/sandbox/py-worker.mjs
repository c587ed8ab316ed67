// Runs plugin Python in Pyodide (CPython compiled to WebAssembly) inside a worker thread, offline:
// the standard library only, loaded from the npm package. Python's files are Pyodide's in-memory
// file system (the host's files are not mounted); there are no processes or sockets in WebAssembly.
// Pyodide's bridges to JavaScript (the `js` module, `pyodide.code.run_js`, the FS and package
// loaders) are removed, and this worker's JavaScript globals that reach the host (process, fetch,
// eval, Function, ...) are taken away before any plugin runs, so even code that found a way back
// into JavaScript finds nothing there. The WebAssembly heap is capped, so an allocation bomb ends
// in MemoryError instead of eating the host's memory.
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
const py = await loadPyodide({ indexURL, stdout: log, stderr: log, checkAPIVersion: true });

const setup = py.globals.get("dict")();
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

def run(code, params_json):
    ns = {"__name__": "__plugin__", "__builtins__": builtins}
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

parentPort.on("message", (msg) => {
  if (msg.type !== "run") return;
  logs = [];
  let answer;
  try {
    answer = { ok: true, result: runner(msg.code, msg.params) };
  } catch (err) {
    answer = { ok: false, error: pythonError(err) };
  }
  parentPort.postMessage({ type: "done", ...answer, logs });
});
parentPort.postMessage({ type: "ready" });

/** The exception line of a Python traceback (the rest names the sandbox's own frames). */
function pythonError(err) {
  const text = String(err?.message ?? err).trim();
  const lines = text.split("\n").filter(Boolean);
  return lines[lines.length - 1] ?? "error";
}
