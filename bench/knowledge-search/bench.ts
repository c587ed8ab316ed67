// Hybrid knowledge search at 10k and 100k segments (PGlite with pgvector, in this process):
// the platform's search (jieba on the query, the statement, fusion) against the raw SQL it runs,
// timed per query without the embedding call (query vectors are given). Also the recall@10 of
// the HNSW index against an exact scan, with random vectors. Run: npm run bench:knowledge-search.
import { randomUUID } from "node:crypto";
import { dict } from "@node-rs/jieba/dict.js";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { openDatabase } from "../../apps/server/src/db/client.ts";
import { knowledgeBases, tenants, users } from "../../apps/server/src/db/schema/index.ts";
import { indexTerms } from "../../apps/server/src/modules/knowledge/keywords.ts";
import { rowsOf } from "../../apps/server/src/modules/knowledge/knowledge.repository.ts";
import {
  ensureHnswIndex,
  HNSW_SETTINGS,
  type SearchInput,
  search,
  searchStatement,
} from "../../apps/server/src/modules/knowledge/search.ts";

const SIZES = (process.env.SIZES ?? "10000,100000").split(",").map(Number);
const DIMS = Number(process.env.DIMS ?? 64);
const QUERIES = Number(process.env.QUERIES ?? 200);
const TOP_K = 10;

// A deterministic pseudo-random source, so every run searches the same data.
let seed = 42;
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
/**
 * Real Chinese words from jieba's dictionary (two to four characters, frequency at least 50),
 * drawn with a Zipf-like skew: segments read like text, and common words match many segments.
 */
const VOCAB = dict
  .toString("utf8")
  .split("\n")
  .map((line) => line.split(" "))
  .filter(([w, f]) => /^[\u4e00-\u9fa5]{2,4}$/.test(w ?? "") && Number(f) >= 50)
  .sort((a, b) => Number(b[1]) - Number(a[1]))
  .slice(0, 30000)
  .map(([w]) => w);
const word = () => VOCAB[Math.floor(rand() ** 1.5 * VOCAB.length)];
const words = (n: number) => Array.from({ length: n }, word);
const unit = (n: number) => {
  const v = Array.from({ length: n }, () => rand() * 2 - 1);
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
};
const literal = (v: number[]) => `[${v.join(",")}]`;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(2)} ms`;

const database = await openDatabase({});
const { db } = database;
const dialect = new PgDialect();
const [tenant] = await db.insert(tenants).values({ domain: "bench", name: "bench" }).returning();
const [user] = await db.insert(users).values({ tenantId: tenant.id, username: "bench", passwordHash: "x" }).returning();
const [base] = await db.insert(knowledgeBases).values({ tenantId: tenant.id, ownerId: user.id, name: "bench" }).returning();
const modelKey = "bench:random";

let stored = 0;
async function fillTo(n: number) {
  const started = Date.now();
  while (stored < n) {
    const batch = Math.min(1000, n - stored);
    const segs = Array.from({ length: batch }, (_, i) => {
      const title = words(3);
      const body = words(40);
      const content = body.join("");
      // Indexed as the platform indexes: the jieba words of the text.
      return {
        id: randomUUID(),
        position: stored + i,
        title: title.join(""),
        content,
        head: indexTerms(title.join("")),
        body: indexTerms(content),
      };
    });
    await db.execute(
      sql`insert into knowledge_segments (id, base_id, position, content, title, tokens, head_terms, body_terms) values ${sql.join(
        segs.map((s) => sql`(${s.id}, ${base.id}, ${s.position}, ${s.content}, ${s.title}, 60, ${s.head}, ${s.body})`),
        sql`, `,
      )}`,
    );
    await db.execute(
      sql`insert into knowledge_vectors (segment_id, base_id, model_key, dims, embedding) values ${sql.join(
        segs.map((s) => sql`(${s.id}, ${base.id}, ${modelKey}, ${DIMS}, ${literal(unit(DIMS))}::vector)`),
        sql`, `,
      )}`,
    );
    stored += batch;
  }
  const filled = Date.now() - started;
  const indexStarted = Date.now();
  // The index is (re)built after the bulk load, as a fresh import would leave it.
  await db.execute(sql.raw(`drop index if exists knowledge_vectors_hnsw_${DIMS}`));
  await db.execute(sql`set maintenance_work_mem = '512MB'`);
  await ensureHnswIndex(db, DIMS, true);
  await db.execute(sql`analyze knowledge_segments`);
  await db.execute(sql`analyze knowledge_vectors`);
  console.log(
    `  loaded ${n} segments in ${(filled / 1000).toFixed(1)} s, HNSW index in ${((Date.now() - indexStarted) / 1000).toFixed(1)} s`,
  );
}

/** The raw SQL of one search: the same statements, sent straight to the database. */
async function raw(input: SearchInput) {
  const q = dialect.sqlToQuery(searchStatement(input, "pgvector"));
  const settings = dialect.sqlToQuery(HNSW_SETTINGS);
  await database.executeSql("begin");
  try {
    await database.executeSql(settings.sql);
    return (await database.executeSql(q.sql, q.params)).rows;
  } finally {
    await database.executeSql("commit");
  }
}

async function recallAt10(queries: number[][]) {
  let found = 0;
  for (const v of queries) {
    const order = sql.raw(`embedding::vector(${DIMS}) <=> '${literal(v)}'::vector(${DIMS})`);
    const where = sql`dims = ${sql.raw(String(DIMS))} and model_key = ${modelKey} and base_id = ${base.id}`;
    const approx = await db.transaction(async (tx) => {
      await tx.execute(HNSW_SETTINGS);
      return rowsOf<{ segment_id: string }>(
        await tx.execute(sql`select segment_id from knowledge_vectors where ${where} order by ${order} limit 10`),
      );
    });
    const exact = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_indexscan = off`);
      return rowsOf<{ segment_id: string }>(
        await tx.execute(sql`select segment_id from knowledge_vectors where ${where} order by ${order} limit 10`),
      );
    });
    const truth = new Set(exact.map((r) => r.segment_id));
    found += approx.filter((r) => truth.has(r.segment_id)).length;
  }
  return found / (queries.length * 10);
}

const results: { n: number; p50: number; p95: number; rawP50: number; rawP95: number; recall: number }[] = [];
for (const n of SIZES) {
  console.log(`\n${n} segments (${DIMS} dimensions)`);
  await fillTo(n);
  const queries = Array.from({ length: QUERIES }, () => ({ text: words(3).join(""), vector: unit(DIMS) }));
  const inputOf = (q: (typeof queries)[number], terms: string): SearchInput => ({
    baseIds: [base.id],
    terms,
    topK: TOP_K,
    vectorWeight: 0.7,
    threshold: 0,
    vector: { embedding: q.vector, modelKey },
  });
  if (process.env.EXPLAIN) {
    const q = dialect.sqlToQuery(searchStatement(inputOf(queries[0], indexTerms(queries[0].text)), "pgvector"));
    await database.executeSql("begin");
    await database.executeSql(dialect.sqlToQuery(HNSW_SETTINGS).sql);
    const plan = await database.executeSql(`explain analyze ${q.sql}`, q.params);
    await database.executeSql("commit");
    console.log((plan.rows as Record<string, string>[]).map((r) => Object.values(r)[0]).join("\n"));
  }
  // Warm-up of both paths.
  for (const q of queries.slice(0, 20)) {
    await search(db, "pgvector", inputOf(q, indexTerms(q.text)));
    await raw(inputOf(q, indexTerms(q.text)));
  }
  const platform: number[] = [];
  const direct: number[] = [];
  let hits = 0;
  for (const q of queries) {
    // Alternating the two paths query by query keeps caches and load alike for both.
    const terms = indexTerms(q.text);
    let t0 = performance.now();
    await raw(inputOf(q, terms));
    direct.push(performance.now() - t0);
    t0 = performance.now();
    const found = await search(db, "pgvector", inputOf(q, indexTerms(q.text)));
    platform.push(performance.now() - t0);
    hits += found.length;
  }
  const recall = await recallAt10(queries.slice(0, 50).map((q) => q.vector));
  const r = { n, p50: pct(platform, 50), p95: pct(platform, 95), rawP50: pct(direct, 50), rawP95: pct(direct, 95), recall };
  results.push(r);
  console.log(`  search (platform): p50 ${ms(r.p50)}  p95 ${ms(r.p95)}   (${(hits / QUERIES).toFixed(1)} hits per query)`);
  console.log(`  raw SQL:           p50 ${ms(r.rawP50)}  p95 ${ms(r.rawP95)}`);
  console.log(`  platform / raw:    ${(r.p50 / r.rawP50).toFixed(2)}× at p50 (goal ≤ 1.3×)`);
  console.log(`  recall@10 HNSW vs exact scan: ${r.recall.toFixed(3)} (goal ≥ 0.95)`);
}
if (results.length >= 2) {
  const [small, large] = [results[0], results.at(-1)!];
  console.log(`\np95 at ${large.n} / p95 at ${small.n}: ${(large.p95 / small.p95).toFixed(2)}× (goal ≤ 2×)`);
  console.log(`p50 at ${large.n}: ${ms(large.p50)} (goal < 30 ms, without the embedding call)`);
}
await database.close();
