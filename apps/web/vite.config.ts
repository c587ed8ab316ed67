import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const api = process.env.AGENTFAIR_API ?? "http://localhost:8080";

export default defineConfig({
  plugins: [react()],
  build: { target: "es2022", chunkSizeWarningLimit: 2000 },
  server: {
    proxy: Object.fromEntries(
      ["/agent_api", "/wendao_api", "/aiagent_api", "/agent/agent_runtime", "/prod-api", "/api", "/docs"].map((p) => [p, api]),
    ),
  },
});
