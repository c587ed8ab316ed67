import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Imports flow one way: app → features → components and lib. A feature never reaches up into
 * the app shell, and the shared pieces never reach into a feature or the shell.
 */
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Every relative import of a file, resolved to a folder under src/ ("app", "features", ...). */
function importedAreas(file: string, text = fs.readFileSync(file, "utf8")) {
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']*)["']/g)].map((m) => m[1]);
  return specs.map((s) => ({ spec: s, area: path.relative(src, path.resolve(path.dirname(file), s)).split(path.sep)[0] }));
}

function violations(area: string, forbidden: string[]) {
  return sources(path.join(src, area)).flatMap((file) =>
    importedAreas(file)
      .filter((i) => forbidden.includes(i.area))
      .map((i) => `${path.relative(src, file)} imports ${i.spec}`),
  );
}

describe("import layering", () => {
  it("no feature imports the app shell", () => {
    expect(violations("features", ["app"])).toEqual([]);
  });

  it("components and lib import neither features nor the app shell", () => {
    expect([...violations("components", ["app", "features"]), ...violations("lib", ["app", "features"])]).toEqual([]);
  });

  it("sees static and dynamic imports of the shell", () => {
    const file = path.join(src, "features", "auth", "pages", "probe.tsx");
    const text = 'import { NotFound } from "../../../app/not-found";\nconst r = import("../../../app/router");\nimport "../api/login";';
    expect(importedAreas(file, text).map((i) => i.area)).toEqual(["app", "app", "features"]);
  });
});
