import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "./test/factories.ts";
import { createTestApp, type TestApp } from "./test/harness.ts";

/**
 * Attack: every API call, driven by its own published schema (/docs/json), is sent values of the
 * wrong type, values at and past the limits of what a database column holds, and ids that match
 * nothing; none may answer 5xx or hang. A 500 for user input is a bug wherever it is.
 */

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  format?: string;
}
interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
type Variant = "wrongTypes" | "extremes" | "plausible";

const typeOf = (s: Schema): string | undefined => {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== "null");
  if (s.type) return s.type;
  if (s.properties) return "object";
  return undefined;
};
const firstOf = (s: Schema): Schema => s.anyOf?.[0] ?? s.oneOf?.[0] ?? s.allOf?.[0] ?? s;

/** A value for `s`: of another type, at the edge of (or past) what it allows, or one that fits. */
function valueFor(schema: Schema, variant: Variant, depth = 0, key = ""): unknown {
  const s = firstOf(schema);
  if (s.const !== undefined) return variant === "wrongTypes" ? 7 : s.const;
  if (s.enum) return variant === "wrongTypes" ? { not: "an enum" } : variant === "extremes" ? "NOT_A_MEMBER\u0000" : s.enum[0];
  const type = typeOf(s);
  switch (type) {
    case "string":
      if (variant === "wrongTypes") return 12345;
      if (variant === "extremes") return `${"字".repeat(Math.min((s.maxLength ?? 5000) + 1, 20_000))}\u0000'";--`;
      if (s.format === "date-time") return "2026-01-01T00:00:00Z";
      // Addresses reach the SSRF guard, not a model or a site: example.com does not resolve here.
      if (/url$/i.test(key)) return "https://example.com/a";
      return "a".repeat(Math.max(1, s.minLength ?? 1));
    case "number":
    case "integer":
      if (variant === "wrongTypes") return "abc";
      if (variant === "extremes") return s.maximum !== undefined ? s.maximum : 1e300;
      return s.minimum !== undefined ? s.minimum : 1;
    case "boolean":
      return variant === "wrongTypes" ? "yes" : true;
    case "array":
      if (variant === "wrongTypes") return "not an array";
      if (depth > 4 || !s.items) return [];
      return Array.from({ length: variant === "extremes" ? 3 : Math.max(1, s.minItems ?? 1) }, () =>
        valueFor(s.items as Schema, variant, depth + 1, key),
      );
    case "object": {
      if (variant === "wrongTypes" && depth > 0) return "not an object";
      if (depth > 4) return {};
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries(s.properties ?? {})) out[name] = valueFor(prop, variant, depth + 1, name);
      return out;
    }
    default:
      return variant === "wrongTypes" ? [] : "x";
  }
}

const PATH_VALUES: Record<Variant, string> = {
  wrongTypes: "x",
  extremes: encodeURIComponent(`${"9".repeat(30)}\u0000字`),
  plausible: "00000000-0000-4000-8000-000000000000",
};

// Calls that end the caller's own session or account; each has route tests of its own.
const SKIPPED = new Set(["POST /agent_api/api/auth/logout"]);

describe("attack: malformed input on every API call", () => {
  let t: TestApp;
  let admin: TestUser;
  let doc: { paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { username: "admin", memberLevel: "ENT_FLAGSHIP_MONTHLY", balanceCents: 100_000 });
    doc = (await t.app.inject({ url: "/docs/json" })).json();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers every call, signed in or not, with anything but a 5xx, and in time", { timeout: 600_000 }, async () => {
    const problems: string[] = [];
    const ids = new Set<string>();
    let sent = 0;
    const send = async (method: string, url: string, payload: unknown, headers: Record<string, string>, label: string) => {
      sent++;
      let timer: NodeJS.Timeout | undefined;
      const res = await Promise.race([
        t.app.inject({ method: method as "GET", url, headers, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) }),
        new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), 10_000);
        }),
      ]);
      clearTimeout(timer);
      if (!res) return problems.push(`${label}: no answer in 10 s`);
      if (res.statusCode >= 500) return problems.push(`${label}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      if (res.statusCode === 200 && res.headers["content-type"]?.toString().startsWith("application/json")) collectIds(res.json(), ids);
    };
    const operations = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.entries(ops).map(([lower, op]) => ({ path, method: lower.toUpperCase(), op })))
      .filter(({ path, method }) => !SKIPPED.has(`${method} ${path}`))
      // Deletions last, so that what the other calls made is there to be sent again.
      .sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
    const call = async (path: string, method: string, op: Operation, variant: Variant, pathValue: string) => {
      const body = op.requestBody?.content?.["application/json"]?.schema;
      const qs = new URLSearchParams();
      for (const p of (op.parameters ?? []).filter((p) => p.in === "query"))
        qs.set(p.name, String(valueFor(p.schema ?? {}, variant, 0, p.name)));
      const filled = path.replace(/\{\w+\}/g, pathValue);
      const payload = body ? valueFor(body, variant) : method === "GET" || method === "DELETE" ? undefined : {};
      const headers: Record<string, string> = {
        ...admin.headers,
        ...(payload === undefined ? {} : { "content-type": "application/json" }),
      };
      await send(
        method,
        qs.size ? `${filled}?${qs}` : filled,
        payload,
        headers,
        `${method} ${path} (${variant}, ${pathValue.slice(0, 40)})`,
      );
    };

    for (const { path, method, op } of operations) {
      for (const variant of ["wrongTypes", "extremes", "plausible"] as const) await call(path, method, op, variant, PATH_VALUES[variant]);
      // Not signed in, and a body that is JSON but not an object.
      const filled = path.replace(/\{\w+\}/g, "x");
      await send(method, filled, undefined, {}, `${method} ${path} (anonymous)`);
      if (method !== "GET")
        await send(
          method,
          filled,
          [1, "a", null],
          { ...admin.headers, "content-type": "application/json" },
          `${method} ${path} (array body)`,
        );
    }
    // Again with the ids of what those calls made (agents, plugins, workflows, ...), to reach past the lookups.
    const made = [...ids].slice(0, 40);
    for (const { path, method, op } of operations.filter((o) => o.path.includes("{"))) {
      for (const id of made)
        for (const variant of ["wrongTypes", "extremes", "plausible"] as const) await call(path, method, op, variant, id);
    }
    expect(made.length).toBeGreaterThan(5);
    expect(sent).toBeGreaterThan(800);
    expect(problems).toEqual([]);
  });
});

/** The ids in an answer's data (`id`, `agentId`, ...), to address what was made. */
function collectIds(value: unknown, into: Set<string>, depth = 0) {
  if (depth > 6 || !value || typeof value !== "object") return;
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === "string" && /^(id|\w+Id)$/.test(key) && v.length > 0 && v.length <= 64) into.add(v);
    else collectIds(v, into, depth + 1);
  }
}
