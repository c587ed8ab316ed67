import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

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

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    target: "es2022",
    rolldownOptions: {
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
      ["/agent_api", "/wendao_api", "/aiagent_api", "/agent/agent_runtime", "/prod-api", "/api", "/docs"].map((p) => [p, api]),
    ),
  },
});
