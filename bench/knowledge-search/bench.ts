// Hybrid knowledge search at 10k and 100k segments (PGlite with pgvector, in this process): the platform's search
// (jieba on the query, the statement, fusion) against the raw SQL it runs, timed per query without the embedding
// call (query vectors are given). The sizes are timed query by query in turn, so the load of a shared machine falls
// on both alike and the p95 ratio compares like with like. Also recall@10 of the HNSW index against an exact scan:
// on clustered vectors (the headline: real embeddings gather by subject) and on uniformly random ones (the worst
// case). Run: npm run bench:knowledge-search (README.md).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { dict } from "@node-rs/jieba/dict.js";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { type Database, openDatabase } from "../../apps/server/src/db/client.ts";
import { knowledgeBases, tenants, users } from "../../apps/server/src/db/schema/index.ts";
import { indexTerms } from "../../apps/server/src/modules/knowledge/keywords.ts";
import { rowsOf } from "../../apps/server/src/modules/knowledge/knowledge.repository.ts";
import {
  EF_SEARCH,
  ensureHnswIndex,
  HNSW_BUILD,
  HNSW_SETTINGS,
  type SearchInput,
  search,
  searchStatement,
} from "../../apps/server/src/modules/knowledge/search.ts";

const SIZES = (process.env.SIZES ?? "10000,100000").split(",").map(Number);
const DIMS = Number(process.env.DIMS ?? 64);
const QUERIES = Number(process.env.QUERIES ?? 200);
const EFS = (process.env.EF ?? "40,100,200,400").split(",").filter(Boolean).map(Number);
const TOP_K = 10;
/** The HNSW build (m, ef_construction) to measure; the platform's by default. */
const [M, EFC] = (process.env.HNSW ?? `${HNSW_BUILD.m},${HNSW_BUILD.efConstruction}`).split(",").map(Number);
/** The loaded databases are kept here and reused by the next run (loading 100k segments takes minutes). */
const DATA = process.env.BENCH_DATA ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../../.tmp/bench-knowledge-search");

/** A deterministic pseudo-random source (mulberry32): every run searches the same data. */
const rng = (start: number) => {
  let s = start;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
/**
 * Real Chinese words from jieba's dictionary (two to four characters, frequency at least 50), drawn with a
 * Zipf-like skew: segments read like text, and common words match many segments.
 */
const VOCAB = dict
  .toString("utf8")
  .split("\n")
  .map((line) => line.split(" "))
  .filter(([w, f]) => /^[\u4e00-\u9fa5]{2,4}$/.test(w ?? "") && Number(f) >= 50)
  .sort((a, b) => Number(b[1]) - Number(a[1]))
  .slice(0, 30000)
  .map(([w]) => w);
const words = (rand: () => number, n: number) => Array.from({ length: n }, () => VOCAB[Math.floor(rand() ** 1.5 * VOCAB.length)]);
const normed = (v: number[]) => {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
};
const uniform = (rand: () => number) => normed(Array.from({ length: DIMS }, () => rand() * 2 - 1));
const gauss = (rand: () => number) => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
/** 200 topics; a clustered vector (a segment's or a question's) lies near one, as real embeddings gather by subject. */
const topics = (() => {
  const rand = rng(7);
  return Array.from({ length: 200 }, () => uniform(rand));
})();
const clustered = (rand: () => number) => normed(topics[Math.floor(rand() * topics.length)].map((x) => x + gauss(rand) * 0.06));
type Kind = "clustered" | "random";
const vectorOf = (kind: Kind, rand: () => number) => (kind === "clustered" ? clustered(rand) : uniform(rand));
const literal = (v: number[]) => `[${v.join(",")}]`;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
const dialect = new PgDialect();

interface Corpus {
  n: number;
  kind: Kind;
  database: Database;
  baseId: string;
  modelKey: string;
}

/**
 * One database per size and kind of vector, loaded once. `text`: segments of real words (the timed corpus);
 * without, the segments are empty and only the vectors matter (the worst-case recall).
 */
async function corpus(n: number, kind: Kind, text: boolean): Promise<Corpus> {
  const dir = path.join(DATA, `${kind}-${text ? "text" : "vectors"}-${n}-${DIMS}-m${M}-efc${EFC}`);
  const done = path.join(dir, "loaded");
  const database = await openDatabase({ dataDir: dir });
  const { db } = database;
  const modelKey = `bench:${kind}`;
  if (fs.existsSync(done)) {
    const [base] = await db.select().from(knowledgeBases);
    return { n, kind, database, baseId: base.id, modelKey };
  }
  await db.execute(sql`truncate knowledge_bases, users, tenants cascade`);
  const [tenant] = await db.insert(tenants).values({ domain: "bench", name: "bench" }).returning();
  const [user] = await db.insert(users).values({ tenantId: tenant.id, username: "bench", passwordHash: "x" }).returning();
  const [base] = await db.insert(knowledgeBases).values({ tenantId: tenant.id, ownerId: user.id, name: "bench" }).returning();
  const started = Date.now();
  // Loaded without the GIN and HNSW indexes, which are built after the load (as a fresh import would leave them).
  await db.execute(sql`drop index if exists knowledge_segments_tsv`);
  await db.execute(sql.raw(`drop index if exists knowledge_vectors_hnsw_${DIMS}`));
  const rand = rng(n * 31 + DIMS);
  for (let stored = 0; stored < n; ) {
    const batch = Math.min(1000, n - stored);
    const segs = Array.from({ length: batch }, (_, i) => {
      const title = text ? words(rand, 3).join("") : "";
      const content = text ? words(rand, 40).join("") : "";
      // Indexed as the platform indexes: the jieba words of the text.
      return { id: `s${stored + i}`, position: stored + i, title, content, head: indexTerms(title), body: indexTerms(content) };
    });
    await db.execute(
      sql`insert into knowledge_segments (id, base_id, position, content, title, tokens, head_terms, body_terms) values ${sql.join(
        segs.map((s) => sql`(${s.id}, ${base.id}, ${s.position}, ${s.content}, ${s.title}, 60, ${s.head}, ${s.body})`),
        sql`, `,
      )}`,
    );
    await db.execute(
      sql`insert into knowledge_vectors (segment_id, base_id, model_key, dims, embedding) values ${sql.join(
        segs.map((s) => sql`(${s.id}, ${base.id}, ${modelKey}, ${DIMS}, ${literal(vectorOf(kind, rand))}::vector)`),
        sql`, `,
      )}`,
    );
    stored += batch;
  }
  const filled = Date.now() - started;
  const indexStarted = Date.now();
  await db.execute(sql`set maintenance_work_mem = '512MB'`);
  await ensureHnswIndex(db, DIMS, true, { m: M, efConstruction: EFC });
  const hnsw = Date.now() - indexStarted;
  await db.execute(sql`create index knowledge_segments_tsv on knowledge_segments using gin (tsv) with (fastupdate = off)`);
  await db.execute(sql`vacuum analyze knowledge_segments`);
  await db.execute(sql`vacuum analyze knowledge_vectors`);
  fs.writeFileSync(done, new Date().toISOString());
  console.log(
    `  loaded ${n} segments (${kind}${text ? ", text" : ""}) in ${(filled / 1000).toFixed(1)} s, indexes in ${((Date.now() - indexStarted) / 1000).toFixed(1)} s (HNSW m ${M}, ef_construction ${EFC}: ${(hnsw / 1000).toFixed(1)} s)`,
  );
  return { n, kind, database, baseId: base.id, modelKey };
}

const inputOf = (c: Corpus, terms: string, vector: number[]): SearchInput => ({
  baseIds: [c.baseId],
  terms,
  topK: TOP_K,
  vectorWeight: 0.7,
  threshold: 0,
  vector: { embedding: vector, modelKey: c.modelKey },
});

/** The raw SQL of one search: the same statements, sent straight to the database. */
async function raw(c: Corpus, input: SearchInput) {
  const q = dialect.sqlToQuery(searchStatement(input, "pgvector"));
  await c.database.executeSql("begin");
  try {
    await c.database.executeSql(dialect.sqlToQuery(HNSW_SETTINGS).sql);
    return (await c.database.executeSql(q.sql, q.params)).rows;
  } finally {
    await c.database.executeSql("commit");
  }
}

/** recall@10 of the HNSW index (the search's settings, with ef_search `ef`) against an exact scan. */
async function recallAt10(c: Corpus, queries: number[][], ef: number) {
  const { db } = c.database;
  let found = 0;
  let time = 0;
  for (const v of queries) {
    const order = sql.raw(`embedding::vector(${DIMS}) <=> '${literal(v)}'::vector(${DIMS})`);
    const where = sql`dims = ${sql.raw(String(DIMS))} and model_key = ${c.modelKey} and base_id = ${c.baseId}`;
    const t0 = performance.now();
    const approx = await db.transaction(async (tx) => {
      await tx.execute(HNSW_SETTINGS);
      await tx.execute(sql`select set_config('hnsw.ef_search', ${String(ef)}, true)`);
      return rowsOf<{ segment_id: string }>(
        await tx.execute(sql`select segment_id from knowledge_vectors where ${where} order by ${order} limit 10`),
      );
    });
    time += performance.now() - t0;
    const exact = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_indexscan = off`);
      return rowsOf<{ segment_id: string }>(
        await tx.execute(sql`select segment_id from knowledge_vectors where ${where} order by ${order} limit 10`),
      );
    });
    const truth = new Set(exact.map((r) => r.segment_id));
    found += approx.filter((r) => truth.has(r.segment_id)).length;
  }
  return `${(found / (queries.length * 10)).toFixed(3)} (${(time / queries.length).toFixed(1)} ms)`;
}

const qrand = rng(1234);
const queries = Array.from({ length: QUERIES }, () => ({ text: words(qrand, 3).join(""), vector: clustered(qrand) }));
const corpora: Corpus[] = [];
// TIMED=0: only the recall on random vectors (comparing HNSW builds without the timed corpora).
if (process.env.TIMED !== "0") for (const n of SIZES) corpora.push(await corpus(n, "clustered", true));

if (process.env.EXPLAIN) {
  for (const c of corpora) {
    const q = dialect.sqlToQuery(searchStatement(inputOf(c, indexTerms(queries[0].text), queries[0].vector), "pgvector"));
    await c.database.executeSql("begin");
    await c.database.executeSql(dialect.sqlToQuery(HNSW_SETTINGS).sql);
    const plan = await c.database.executeSql(`explain (analyze, buffers) ${q.sql}`, q.params);
    await c.database.executeSql("commit");
    console.log(`\nplan at ${c.n}:\n${(plan.rows as Record<string, string>[]).map((r) => Object.values(r)[0]).join("\n")}`);
  }
}

const timings = corpora.map(() => ({ platform: [] as number[], raw: [] as number[], former: [] as number[], hits: 0, same: 0 }));
// Warm-up of every path on every size.
for (const q of queries.slice(0, 20))
  for (const c of corpora) {
    await search(c.database.db, "pgvector", inputOf(c, indexTerms(q.text), q.vector));
    await raw(c, inputOf(c, indexTerms(q.text), q.vector));
  }
for (const [i, q] of queries.entries()) {
  // The sizes in turn, and the order flipped every query: load and caches fall on all alike.
  const order = i % 2 ? [...corpora.keys()].reverse() : [...corpora.keys()];
  for (const k of order) {
    const c = corpora[k];
    const t = timings[k];
    const terms = indexTerms(q.text);
    let t0 = performance.now();
    await raw(c, inputOf(c, terms, q.vector));
    t.raw.push(performance.now() - t0);
    t0 = performance.now();
    const found = await search(c.database.db, "pgvector", inputOf(c, indexTerms(q.text), q.vector));
    t.platform.push(performance.now() - t0);
    t.hits += found.length;
    // The former statement: every keyword match ranked by ts_rank.
    t0 = performance.now();
    await search(c.database.db, "pgvector", inputOf(c, indexTerms(q.text), q.vector), -1);
    t.former.push(performance.now() - t0);
    // The same top 10 as ranking every keyword match (by coverage, then ts_rank)?
    const exact = await search(c.database.db, "pgvector", inputOf(c, terms, q.vector), Number.POSITIVE_INFINITY);
    if (exact.map((h) => h.segmentId).join() === found.map((h) => h.segmentId).join()) t.same++;
  }
}
console.log(`\n${QUERIES} hybrid queries (3 words, a clustered query vector; topK ${TOP_K}, vectorWeight 0.7), ${DIMS} dimensions`);
console.log(
  "| segments | platform p50 / p95 | raw SQL p50 / p95 | platform ÷ raw (p50) | former statement p50 / p95 | same top 10 as exhaustive |",
);
console.log("|---|---|---|---|---|---|");
for (const [k, c] of corpora.entries()) {
  const t = timings[k];
  console.log(
    `| ${c.n} | ${ms(pct(t.platform, 50))} / ${ms(pct(t.platform, 95))} | ${ms(pct(t.raw, 50))} / ${ms(pct(t.raw, 95))} | ${(pct(t.platform, 50) / pct(t.raw, 50)).toFixed(2)}× | ${ms(pct(t.former, 50))} / ${ms(pct(t.former, 95))} | ${t.same} of ${QUERIES} (${(t.hits / QUERIES).toFixed(1)} hits per query) |`,
  );
}
if (corpora.length >= 2) {
  const [small, large] = [timings[0], timings.at(-1)!];
  const [ns, nl] = [corpora[0].n, corpora.at(-1)!.n];
  console.log(
    `\np95 at ${nl} ÷ p95 at ${ns}: platform ${(pct(large.platform, 95) / pct(small.platform, 95)).toFixed(2)}×, raw SQL ${(pct(large.raw, 95) / pct(small.raw, 95)).toFixed(2)}× (goal ≤ 2×); former statement ${(pct(large.former, 95) / pct(small.former, 95)).toFixed(2)}×`,
  );
  console.log(`p50 at ${nl}: ${ms(pct(large.platform, 50))} (goal < 30 ms, without the embedding call)`);
}

const probes = (kind: Kind) => {
  const rand = rng(99);
  return Array.from({ length: 50 }, () => vectorOf(kind, rand));
};
console.log(
  `\nrecall@10, HNSW (m ${M}, ef_construction ${EFC}) against an exact scan, 50 queries (mean time of the HNSW query); the search uses ef_search ${EF_SEARCH}`,
);
console.log(`| vectors | segments | ${EFS.map((ef) => `ef_search ${ef}`).join(" | ")} |`);
console.log(`|---|---|${EFS.map(() => "---|").join("")}`);
for (const c of corpora) {
  const row: string[] = [];
  for (const ef of EFS) row.push(await recallAt10(c, probes("clustered"), ef));
  console.log(`| clustered (headline) | ${c.n} | ${row.join(" | ")} |`);
}
for (const c of corpora) await c.database.close();
if (process.env.RANDOM !== "0")
  for (const n of SIZES) {
    const c = await corpus(n, "random", false);
    const row: string[] = [];
    for (const ef of EFS) row.push(await recallAt10(c, probes("random"), ef));
    console.log(`| random (worst case) | ${n} | ${row.join(" | ")} |`);
    await c.database.close();
  }
