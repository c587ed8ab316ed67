import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sandboxes } from "./index.ts";

// One pair of pools for the whole file: workers are slow to start (Pyodide most of all).
const sandboxes = new Sandboxes({ timeoutMs: 1500, memoryMb: 32, jsWorkers: 2, pyWorkers: 2 });
const js = (code: string, params: unknown = {}, over: Partial<Parameters<Sandboxes["run"]>[1]> = {}) =>
  sandboxes.run("javascript", { tenantKey: "t1", ownerKey: "o1", code, params, ...over });
const py = (code: string, params: unknown = {}, over: Partial<Parameters<Sandboxes["run"]>[1]> = {}) =>
  sandboxes.run("python", { tenantKey: "t1", ownerKey: "o1", code, params, ...over });

beforeAll(async () => {
  await Promise.all([sandboxes.warm("javascript"), sandboxes.warm("python")]);
}, 120_000);
afterAll(() => sandboxes.close());

describe("JavaScript sandbox (QuickJS)", () => {
  it("returns main(params)'s result, awaits async main and keeps console lines", async () => {
    const r = await js("function main(p) { console.log('hi', p.n); return { doubled: p.n * 2, list: [1, 'a'] }; }", { n: 21 });
    expect(r).toMatchObject({ ok: true, result: { doubled: 42, list: [1, "a"] }, error: null, logs: ["hi 21"] });
    const a = await js("async function main(p) { await null; return p.s.toUpperCase(); }", { s: "abc" });
    expect(a).toMatchObject({ ok: true, result: "ABC" });
    const none = await js("function main() {}");
    expect(none).toMatchObject({ ok: true, result: null });
  });

  it("reports errors: a throw, a syntax error, no main", async () => {
    expect(await js("function main() { throw new Error('boom'); }")).toMatchObject({ ok: false, error: "Error: boom" });
    expect((await js("function main( {")).error).toMatch(/SyntaxError/);
    expect((await js("const x = 1;")).error).toMatch(/main\(params\)/);
  });

  it("has no host objects: process, require, import(), Function-constructor escapes, fetch without permission", async () => {
    const escaped = await js("function main() { return this.constructor.constructor('return process')(); }");
    expect(escaped.ok).toBe(false);
    expect(escaped.error).toMatch(/process.? is not defined/);
    const probe = await js(
      "function main() { return [typeof globalThis.process, typeof require, typeof fetch, typeof Buffer, typeof setTimeout, typeof WebAssembly]; }",
    );
    expect(probe.result).toEqual(["undefined", "undefined", "undefined", "undefined", "undefined", "undefined"]);
    const imported = await js("async function main() { const fs = await import('fs'); return fs.readFileSync('/etc/passwd', 'utf8'); }");
    expect(imported.ok).toBe(false);
    expect(JSON.stringify(imported)).not.toContain("root:");
  });

  it("kills a busy loop within the limit and the next call runs at once", async () => {
    const started = Date.now();
    const r = await js("function main() { while (1) {} }");
    expect(r.ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(2500);
    const next = await js("function main() { return 1; }");
    expect(next).toMatchObject({ ok: true, result: 1 });
  });

  it("stops an allocation bomb at the memory limit, with the host's memory bounded", async () => {
    const before = process.memoryUsage().rss;
    for (const bomb of [
      "const a = []; for (;;) a.push(new ArrayBuffer(1 << 20));",
      "const a = []; for (;;) a.push('x'.repeat(1 << 20) + a.length);",
    ]) {
      const r = await js(`function main() { ${bomb} }`);
      expect(r.ok).toBe(false);
      expect(r.error).toMatch(/memory|timed out/i);
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
    expect(await js("function main() { return 'alive'; }")).toMatchObject({ ok: true, result: "alive" });
  });

  it("fetches only through the host's bridge, when enabled", async () => {
    const asked: string[] = [];
    const r = await js(
      "async function main() { const res = await fetch('https://example.test/a', { method: 'post', body: 'x' }); return { s: res.status, j: await res.json() }; }",
      {},
      {
        fetch: async (req) => {
          asked.push(`${req.method} ${req.url} ${req.body}`);
          return { status: 201, headers: { "content-type": "application/json" }, body: '{"v":1}' };
        },
      },
    );
    expect(r).toMatchObject({ ok: true, result: { s: 201, j: { v: 1 } } });
    expect(asked).toEqual(["POST https://example.test/a x"]);
    const refused = await js(
      "async function main() { await fetch('https://example.test/'); }",
      {},
      { fetch: async () => Promise.reject(new Error("blocked address: 127.0.0.1")) },
    );
    expect(refused).toMatchObject({ ok: false, error: "Error: blocked address: 127.0.0.1" });
  });

  it("keeps another tenant's calls fast while one tenant's plugins spin", async () => {
    const spinning = Array.from({ length: 4 }, () => js("function main() { while (1) {} }", {}, { tenantKey: "noisy" }));
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const quiet = await js("function main() { return 'quick'; }", {}, { tenantKey: "quiet" });
    expect(quiet).toMatchObject({ ok: true, result: "quick" });
    expect(Date.now() - started).toBeLessThan(1000);
    for (const r of await Promise.all(spinning)) expect(r.ok).toBe(false);
  }, 20_000);
});

describe("Python sandbox (Pyodide)", () => {
  it("returns main(params)'s result with the standard library and print lines", async () => {
    const r = await py(
      "import json, math, re, datetime\ndef main(params):\n    print('n is', params['n'])\n    return {'root': math.isqrt(params['n']), 'm': re.findall(r'\\d', 'a1b2')}",
      { n: 49 },
    );
    expect(r).toMatchObject({ ok: true, result: { root: 7, m: ["1", "2"] }, logs: ["n is 49"] });
    const err = await py("def main(params):\n    raise ValueError('bad input')");
    expect(err).toMatchObject({ ok: false, error: "ValueError: bad input" });
    expect((await py("x = 1")).error).toMatch(/main\(params\)/);
  });

  it("cannot read the host's files, start processes or reach JavaScript", async () => {
    const read = await py("def main(params):\n    return open('/etc/passwd').read()");
    expect(read.ok).toBe(false);
    expect(JSON.stringify(read)).not.toContain("root:");
    for (const code of [
      "import js\ndef main(params):\n    return str(js.process.env)",
      "import pyodide.code\ndef main(params):\n    return pyodide.code.run_js('process.version')",
      "import pyodide_js\ndef main(params):\n    return str(pyodide_js.FS)",
      "import sys\ndef main(params):\n    return str(sys.modules['js'].process)",
    ]) {
      const r = await py(code);
      expect(r.ok, code).toBe(false);
    }
    const marker = `/tmp/agentfair-sandbox-${process.pid}`;
    for (const code of [
      `import os\ndef main(params):\n    return os.system('touch ${marker}')`,
      `import posix\ndef main(params):\n    return posix.system('touch ${marker}')`,
      `import os\ndef main(params):\n    return os.popen('touch ${marker}').read()`,
      `import subprocess\ndef main(params):\n    return subprocess.run(['touch', '${marker}']).returncode`,
    ]) {
      const r = await py(code);
      expect(r.ok, code).toBe(false);
      expect(fs.existsSync(marker), code).toBe(false);
    }
  });

  it("finds nothing in JavaScript even when Python removes its own import blocker", async () => {
    const unblock = "import sys\nsys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != '_Block']\n";
    const process_ = await py(`${unblock}import js\ndef main(params):\n    return [str(js.process), str(js.require), str(js.fetch)]`);
    expect(process_.result).toEqual(["None", "None", "None"]);
    for (const body of [
      "import js\n    return str(js.Function('return process')())",
      "import js\n    return str(js.eval('process.env'))",
      "import pyodide_js\n    pyodide_js.FS.mount(pyodide_js.FS.filesystems.NODEFS, {'root': '/'}, '/host')\n    return open('/host/etc/passwd').read()",
      "import pyodide.code\n    return str(pyodide.code.run_js('process.env'))",
    ]) {
      const r = await py(`${unblock}def main(params):\n    ${body}`);
      expect(r.ok, body).toBe(false);
      expect(JSON.stringify(r)).not.toContain("root:");
    }
  });

  it("fetches through the host's bridge only when enabled; the bridge itself builds no code", async () => {
    const asked: string[] = [];
    const fetch = async (req: { method: string; url: string; body: string | null; headers: Record<string, string> }) => {
      asked.push(`${req.method} ${req.url} ${req.body} ${req.headers["content-type"]}`);
      return { status: 201, headers: { "content-type": "application/json" }, body: '{"v":"中"}' };
    };
    const code =
      "def main(params):\n    r = fetch('https://example.test/a', 'post', json_body={'x': 1})\n    return [r.status, r.ok, r.json()]";
    expect(await py(code, {}, { fetch })).toMatchObject({ ok: true, result: [201, true, { v: "中" }] });
    expect(asked).toEqual(['POST https://example.test/a {"x": 1} application/json']);
    const off = await py(code);
    expect(off).toMatchObject({ ok: false, error: "ConnectionError: network access is not enabled for this plugin" });
    const refused = await py(code, {}, { fetch: async () => Promise.reject(new Error("blocked address: 127.0.0.1")) });
    expect(refused).toMatchObject({ ok: false, error: "ConnectionError: blocked address: 127.0.0.1" });
    // The JavaScript function behind fetch, dug out of its closure: it neither builds code nor skips the permission.
    const bridge = "h = fetch.__closure__[0].cell_contents\n    ";
    for (const body of [
      "return str(h.constructor('return process')())",
      "return str(h.call.constructor('return process')())",
      "return h('https://example.test/', 'GET', '{}', None)",
    ]) {
      const r = await py(`def main(params):\n    ${bridge}${body}`);
      expect(JSON.stringify(r), body).not.toMatch(/"status":201|versions|env/);
    }
    expect(asked).toHaveLength(1);
  });

  it("runs nothing after a call returns: JavaScript timers are not there to schedule", async () => {
    const unblock = "import sys\nsys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != '_Block']\n";
    const plant = await py(
      `${unblock}import js, builtins\nfrom pyodide.ffi import create_proxy\nbuiltins.planted = True\ndef spin(*a):\n    while True:\n        pass\ndef main(params):\n    refused = []\n    for name in ('setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask'):\n        try:\n            getattr(js, name)(create_proxy(spin), 0)\n        except Exception as e:\n            refused.append(name if 'not available' in str(e) else repr(e))\n    return refused`,
      {},
      { ownerKey: "timers" },
    );
    expect(plant).toMatchObject({ ok: true, result: ["setTimeout", "setInterval", "setImmediate", "queueMicrotask"] });
    await new Promise((r) => setTimeout(r, 300));
    // The same owner's next call lands on the same interpreter, which nothing is keeping busy.
    const started = Date.now();
    const next = await py("import builtins\ndef main(params):\n    return builtins.planted", {}, { ownerKey: "timers" });
    expect(next).toMatchObject({ ok: true, result: true });
    expect(Date.now() - started).toBeLessThan(1000);
  }, 30_000);

  it("kills `while True: pass` within the limit, and the pool recovers", async () => {
    const started = Date.now();
    const r = await py("def main(params):\n    while True:\n        pass");
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(2500);
    const next = await py("def main(params):\n    return 2");
    expect(next).toMatchObject({ ok: true, result: 2 });
  }, 30_000);

  it("ends an allocation bomb in MemoryError with the host's memory bounded", async () => {
    const before = process.memoryUsage().rss;
    const r = await py("def main(params):\n    x = bytearray(1024 * 1024 * 1024)\n    return len(x)");
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/MemoryError|memory/);
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
  }, 30_000);

  it("gives another owner a fresh interpreter (no state leaks between owners)", async () => {
    const hijack = "import json\ndef main(params):\n    json.dumps = lambda *a, **k: '\"hijacked\"'\n    return 1";
    // Both workers serve the evil owner (two tenants, so both run at once)...
    await Promise.all([py(hijack, {}, { ownerKey: "evil", tenantKey: "e1" }), py(hijack, {}, { ownerKey: "evil", tenantKey: "e2" })]);
    const r = await py("def main(params):\n    return 'clean'", {}, { ownerKey: "victim" });
    expect(r).toMatchObject({ ok: true, result: "clean" });
  }, 120_000);
});
