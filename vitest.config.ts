import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "server",
          root: "apps/server",
          include: ["src/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: "forks",
          // A worker runs file after file without re-importing the server (most of a file's time
          // was the import): files share nothing else, each builds its own app on its own database.
          isolate: false,
        },
      },
      {
        test: { name: "contracts", root: "packages/contracts", include: ["src/**/*.test.ts"], environment: "node" },
      },
      {
        extends: "apps/web/vite.config.ts",
        test: {
          name: "web",
          root: "apps/web",
          include: ["src/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          setupFiles: ["src/test/setup.ts"],
          // As the server's: one jsdom and one import of antd and the app for all files (most of a
          // file's time was both); src/test/setup.ts clears what tests leave in the document.
          isolate: false,
        },
      },
    ],
  },
});
