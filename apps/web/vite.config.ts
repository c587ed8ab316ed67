import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, parseAst } from "vite";

const api = process.env.AGENTFAIR_API ?? "http://localhost:8080";
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `.br` and `.gz` beside every built script, style sheet and SVG worth compressing: the
 * server sends them as they are (@fastify/static `preCompressed`), so nothing is compressed per request.
 */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "agentfair:precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true })).filter((f) => /\.(js|mjs|css|svg|json|html)$/.test(f));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const data = await fs.readFile(full);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
            gzip(data, { level: 9 }),
          ]);
          await Promise.all([fs.writeFile(`${full}.br`, br), fs.writeFile(`${full}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * `src/i18n/locales/...?lang=zh` is the locales with one language only: each area's
 * `defineArea(zh, en)` keeps the asked side and the index asks its areas in the same language, so
 * a browser loads the texts of the language it shows (src/i18n/index.ts) and each area file keeps
 * both languages side by side for the type check.
 */
function oneLanguage(): Plugin {
  return {
    name: "agentfair:one-language",
    transform(code, id) {
      const [file, query = ""] = id.split("?");
      const lang = new URLSearchParams(query).get("lang");
      if (!lang || !/[\\/]src[\\/]i18n[\\/]locales[\\/]/.test(file)) return;
      if (lang !== "zh" && lang !== "en") throw new Error(`no such language: ${lang}`);
      const dropped: [number, number][] = [];
      const visit = (node: unknown) => {
        if (!node || typeof node !== "object") return;
        if (Array.isArray(node)) return node.forEach(visit);
        const n = node as { type?: string; callee?: { name?: string }; arguments?: { start: number; end: number }[] };
        if (n.type === "CallExpression" && n.callee?.name === "defineArea" && n.arguments?.length === 2) {
          const other = n.arguments[lang === "zh" ? 1 : 0];
          dropped.push([other.start, other.end]);
          return;
        }
        for (const value of Object.values(node)) visit(value);
      };
      visit(parseAst(code));
      let out = code;
      for (const [start, end] of dropped.sort((a, b) => b[0] - a[0])) out = `${out.slice(0, start)}{}${out.slice(end)}`;
      // The index's areas (relative imports) in the same language.
      out = out.replace(/(from\s*["']\.\/[\w-]+)(["'])/g, `$1?lang=${lang}$2`);
      return { code: out, map: null };
    },
  };
}

/**
 * antd's form context imports rc-form's index for its provider alone, and that index assigns
 * Form's statics, which keeps the whole form engine (about 10 KB gzipped) in every first load that
 * shows an input: the provider is taken from its own module (the one rc-form's Form uses too).
 */
function formProviderAlone(): Plugin {
  return {
    name: "agentfair:form-provider-alone",
    apply: "build",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === "@rc-component/form" && importer && /[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/.test(importer))
        return this.resolve("@rc-component/form/es/FormContext", importer, { skipSelf: true });
    },
  };
}

/**
 * The contracts declare their schemas at module level (`z.object({ level: memberLevel.nullable() })`),
 * and a call may have side effects for all the bundler knows, so every schema of a module stayed in
 * the bundle once anything else of it was used, and zod (25 KB gzipped) with them. The contracts
 * run nothing at module level but building values: each call outside a function is marked pure, so
 * a schema no page uses goes, as does zod where no page of a first load uses one.
 */
function pureContracts(): Plugin {
  return {
    name: "agentfair:pure-contracts",
    apply: "build",
    transform(code, id) {
      if (!/[\\/]packages[\\/]contracts[\\/]src[\\/][^?]*\.ts$/.test(id) || /\.test\.ts$/.test(id)) return;
      const starts: number[] = [];
      const visit = (node: unknown) => {
        if (!node || typeof node !== "object") return;
        if (Array.isArray(node)) return node.forEach(visit);
        const n = node as { type?: string; start: number };
        if (n.type && /Function|Class/.test(n.type)) return; // runs when called, not when the module loads
        if (n.type === "CallExpression" || n.type === "NewExpression") starts.push(n.start);
        for (const value of Object.values(node)) visit(value);
      };
      visit(this.parse(code));
      let out = code;
      // A chain (`z.string().min(1)`) is calls starting at one place: each gets its own mark.
      for (const start of starts.sort((a, b) => b - a)) out = `${out.slice(0, start)}/* @__PURE__ */ ${out.slice(start)}`;
      return { code: out, map: null };
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), oneLanguage(), formProviderAlone(), pureContracts()],
  resolve: {
    // One copy of antd's helpers: @ant-design/x and `antd/locale/*` import the CommonJS builds (lib/),
    // which would ship beside the ES builds every antd component uses, with contexts of their own
    // (x's components then missed the app's locale and icon settings).
    alias: [
      { find: /^antd\/(?:lib\/)?locale\/(.*)$/, replacement: "antd/es/locale/$1" },
      { find: /^antd\/lib\/(.*)$/, replacement: "antd/es/$1" },
      { find: /^@ant-design\/(cssinjs|icons)\/lib\/(.*)$/, replacement: "@ant-design/$1/es/$2" },
      { find: /^@rc-component\/util\/lib\/(.*)$/, replacement: "@rc-component/util/es/$1" },
    ],
  },
  build: {
    target: "es2022",
    rolldownOptions: {
      // The contracts have no side effects: a page loads the modules whose values it uses, not every area's.
      treeshake: {
        moduleSideEffects: (id) => (/[\\/]packages[\\/]contracts[\\/]src[\\/]/.test(id) ? false : undefined),
      },
      // Chunks under 500 kB: echarts' renderer apart from echarts; react-dom and zod (on every first
      // load anyway) apart from the rest of the shared code, so each is cached on its own.
      output: {
        codeSplitting: {
          groups: [
            { name: "zrender", test: /node_modules[\\/]zrender[\\/]/ },
            { name: "react-dom", test: /node_modules[\\/](react-dom|scheduler)[\\/]/ },
            { name: "zod", test: /node_modules[\\/]zod[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      // Whole segments (a key starting with ^ is a pattern): a tenant's /apiary/login is the app's page.
      ["/agent_api", "/wendao_api", "/aiagent_api", "/agent/agent_runtime", "/prod-api", "/api", "/docs"].map((p) => [`^${p}(/|$)`, api]),
    ),
  },
});
