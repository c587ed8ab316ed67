import { type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { cosine } from "./embeddings.ts";
import { rowsOf } from "./knowledge.repository.ts";

/**
 * Hybrid retrieval over knowledge segments.
 *
 * Keyword: the query's jieba words, normalised by the same `simple` parser as the stored tsvector,
 * OR-ed into a tsquery; the GIN index finds candidates, ranked by ts_rank. A candidate's keyword
 * score is its coverage of the query words: 1 per word found in its title or question, 0.8 per
 * word found only in the body, divided by the number of words (0–1).
 *
 * Vector: cosine similarity (0–1) to the query's embedding: pgvector's HNSW index (a partial index
 * per dimension) finds candidates; without pgvector every stored vector of the bases is scanned.
 *
 * Fused score = vectorWeight × vector + (1 − vectorWeight) × keyword, over the union of both
 * candidate sets; hits below the threshold are dropped; the best topK are returned.
 */
export type VectorKind = "pgvector" | "array";

export interface SearchInput {
  baseIds: string[];
  /** jieba words of the query, space-joined (see keywords.ts). */
  terms: string;
  topK: number;
  vectorWeight: number;
  threshold: number;
  /** The query's embedding and the model that made it; absent: keyword search only. */
  vector?: { embedding: number[]; modelKey: string };
}

export interface SearchRow {
  id: string;
  file_id: string | null;
  base_id: string;
  content: string;
  title: string | null;
  question: string | null;
  answer: string | null;
  k: number;
  v: number | null;
}

export interface Hit {
  segmentId: string;
  fileId: string | null;
  baseId: string;
  content: string;
  title: string | null;
  question: string | null;
  answer: string | null;
  score: number;
  keywordScore: number;
  vectorScore: number;
  /** The rerank model's relevance, when the hits were reranked (knowledge.service.ts). */
  rerankScore?: number;
  /** The name of the file the segment came from (set by knowledge.service.ts's retrieve). */
  fileName?: string | null;
}

/** Candidates taken from each side before fusion. */
export const candidatesFor = (topK: number) => Math.max(topK * 4, 40);
/** Largest dimension an HNSW index of pgvector's `vector` type takes. */
export const HNSW_MAX_DIMS = 2000;

/**
 * Keyword matches ranked per search, at most, from each of the index scans for the segments holding every query word
 * and those holding at least two. Ranking every match grew with the base (a common word matches thousands of segments
 * at 100k, and each must be read to be ranked); this keeps the work per query flat. The single-word matches, whose
 * coverage (at most 1 ÷ words) is the lowest there is, are not ranked at all: the candidates still needed are taken
 * from them in index order, first those with the word in their title or question (their own index), then any
 * (search.bound.test.ts).
 */
export const KEYWORD_SAMPLE = 400;

/**
 * The keyword candidates: the top n by coverage (the keyword score the fusion uses), then ts_rank, of every match
 * (sample Infinity: the exact ranking) or of the bounded sets above. Sample -1: the former statement (every match,
 * by ts_rank alone), kept for the benchmark's before/after and the test.
 */
function keywordCandidates(bases: SQL, n: number, sample: number): SQL {
  const coverage = sql`(select sum(case when s.tsv @@ qt.headq then 1.0 when s.tsv @@ qt.anyq then 0.8 else 0 end) from qt)`;
  const rank = sql`ts_rank(s.tsv, (select query from q))`;
  const from = sql`from knowledge_segments s where ${bases} and s.enabled`;
  if (sample < 0) return sql`select s.id ${from} and s.tsv @@ (select query from q) order by ${rank} desc limit ${n}`;
  if (!Number.isFinite(sample))
    return sql`select s.id ${from} and s.tsv @@ (select query from q) order by ${coverage} desc, ${rank} desc, s.id limit ${n}`;
  const tier = (match: SQL, limit: number) =>
    sql`(select s.id, ${coverage} as c, ${rank} as r ${from} and ${match} limit ${sql.raw(String(Math.max(1, Math.floor(limit))))})`;
  return sql`select id from (${tier(sql`s.tsv @@ (select every from q)`, sample)}
    union all ${tier(sql`s.tsv @@ (select multi from q)`, sample)}
    union all ${tier(sql`to_tsvector('simple'::regconfig, s.head_terms) @@ (select query from q)`, n)}
    union all ${tier(sql`s.tsv @@ (select query from q)`, n)}) c
    group by id order by max(c) desc, max(r) desc, id limit ${n}`;
}

const vectorLiteral = (v: number[]) => `[${v.map((x) => (Number.isFinite(x) ? x : 0)).join(",")}]`;
const round = (x: number) => Math.round(x * 10000) / 10000;

/** The statement of one search (pgvector or keyword only); exported so the benchmark runs exactly it. */
export function searchStatement(input: SearchInput, kind: VectorKind, extraIds: string[] = [], sample: number = KEYWORD_SAMPLE): SQL {
  const n = candidatesFor(input.topK);
  const bases = sql`s.base_id in ${input.baseIds}`;
  const prelude = sql`
    with qt as (
      select t, quote_literal(t)::tsquery as anyq, (quote_literal(t) || ':A')::tsquery as headq
      from unnest(tsvector_to_array(to_tsvector('simple'::regconfig, ${input.terms}))) t
      where position(E'\\\\' in t) = 0
    ),
    q as (
      select string_agg(anyq::text, ' | ')::tsquery as query, count(*) as n,
        string_agg(anyq::text, ' & ')::tsquery as every,
        coalesce((select string_agg('(' || a.anyq::text || ' & ' || b.anyq::text || ')', ' | ') from qt a join qt b on a.t < b.t)::tsquery,
          string_agg(anyq::text, ' | ')::tsquery) as multi
      from qt
    ),
    kw as (${keywordCandidates(bases, n, sample)})`;
  const keyword = sql`coalesce((select sum(case when s.tsv @@ qt.headq then 1.0 when s.tsv @@ qt.anyq then 0.8 else 0 end) from qt), 0)::float8 / greatest(q.n, 1) as k`;
  const columns = sql`s.id, s.file_id, s.base_id, s.content, s.title, s.question, s.answer`;
  if (input.vector && kind === "pgvector") {
    const dims = input.vector.embedding.length;
    const type = sql.raw(`vector(${dims})`);
    const literal = vectorLiteral(input.vector.embedding);
    const modelKey = input.vector.modelKey;
    return sql`${prelude},
      vec as (
        select v.segment_id as id, v.embedding::${type} <=> ${literal}::${type} as dist from knowledge_vectors v
        where v.dims = ${sql.raw(String(dims))} and v.model_key = ${modelKey} and v.base_id in ${input.baseIds}
        order by v.embedding::${type} <=> ${literal}::${type} limit ${n}
      ),
      cand as (select id from kw union select id from vec)
      select ${columns}, ${keyword},
        1 - coalesce(vec.dist, (select vv.embedding::${type} <=> ${literal}::${type} from knowledge_vectors vv
          where vv.segment_id = s.id and vv.model_key = ${modelKey} and vv.dims = ${sql.raw(String(dims))})) as v
      from cand join knowledge_segments s on s.id = cand.id left join vec on vec.id = s.id, q
      where s.enabled`;
  }
  const cand = extraIds.length
    ? sql`select id from kw union select unnest(${sql`ARRAY[${sql.join(
        extraIds.map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]`}) as id`
    : sql`select id from kw`;
  return sql`${prelude},
    cand as (${cand})
    select ${columns}, ${keyword}, null::float8 as v
    from cand join knowledge_segments s on s.id = cand.id, q
    where s.enabled and ${bases}`;
}

/** Fuses the scores of the candidate rows, drops those under the threshold, best first. */
export function fuse(rows: SearchRow[], input: SearchInput, vectorScores?: Map<string, number>): Hit[] {
  const w = input.vector ? input.vectorWeight : 0;
  return rows
    .map((r) => {
      const keywordScore = Math.min(1, Math.max(0, Number(r.k) || 0));
      const vectorScore = Math.min(1, Math.max(0, Number(vectorScores?.get(r.id) ?? r.v ?? 0) || 0));
      return {
        segmentId: r.id,
        fileId: r.file_id,
        baseId: r.base_id,
        content: r.content,
        title: r.title,
        question: r.question,
        answer: r.answer,
        score: round(w * vectorScore + (1 - w) * keywordScore),
        keywordScore: round(keywordScore),
        vectorScore: round(vectorScore),
      };
    })
    .filter((h) => h.score > 0 && h.score >= input.threshold)
    .sort((a, b) => b.score - a.score || a.segmentId.localeCompare(b.segmentId))
    .slice(0, input.topK);
}

/**
 * For this transaction only: a wider HNSW search (enough for the candidates) that keeps scanning
 * when the base filter removes rows (pgvector 0.8 iterative scan). One round trip.
 */
/** Realistic embeddings reach recall@10 0.998 from 100 on; 400 gives random vectors at 100k 0.99 (0.95 at 200; bench/knowledge-search). */
export const EF_SEARCH = 400;
export const HNSW_SETTINGS = sql`select set_config('hnsw.ef_search', '${sql.raw(String(EF_SEARCH))}', true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`;

/** Runs one hybrid search. */
export async function search(db: Db, kind: VectorKind, input: SearchInput, sample = KEYWORD_SAMPLE): Promise<Hit[]> {
  if (!input.baseIds.length || (!input.terms.trim() && !input.vector)) return [];
  if (input.vector && kind === "array") {
    // No pgvector: an exact scan of the bases' stored vectors, then the keyword statement over both candidate sets.
    const stored = rowsOf<{ segment_id: string; embedding: number[] }>(
      await db.execute(
        sql`select segment_id, embedding from knowledge_vectors where model_key = ${input.vector.modelKey} and base_id in ${input.baseIds}`,
      ),
    );
    const scores = new Map(stored.map((r) => [r.segment_id, cosine(input.vector!.embedding, r.embedding)]));
    const best = [...scores.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, candidatesFor(input.topK))
      .map(([id]) => id);
    const rows = rowsOf<SearchRow>(await db.execute(searchStatement(input, kind, best, sample)));
    return fuse(rows, input, scores);
  }
  if (input.vector) {
    // SET LOCAL keeps the HNSW settings to this search's transaction (pooled connections are shared).
    const rows = await db.transaction(async (tx: Tx) => {
      await tx.execute(HNSW_SETTINGS);
      return rowsOf<SearchRow>(await tx.execute(searchStatement(input, kind, [], sample)));
    });
    return fuse(rows, input);
  }
  return fuse(rowsOf<SearchRow>(await db.execute(searchStatement(input, kind, [], sample))), input);
}

// ---- vector storage ----------------------------------------------------------------------------

/** Which column type the migration gave knowledge_vectors.embedding. */
export async function detectVectorKind(db: Db): Promise<VectorKind> {
  const [row] = rowsOf<{ type: string }>(
    await db.execute(sql`select format_type(atttypid, atttypmod) as type from pg_attribute
      where attrelid = 'knowledge_vectors'::regclass and attname = 'embedding'`),
  );
  return row?.type === "vector" ? "pgvector" : "array";
}

/**
 * The HNSW graph's build parameters (pgvector's m and ef_construction, above its defaults 16 and 64): on uniformly random
 * vectors at 100k, recall@10 0.99 against 0.93–0.94 at ef_search 400, for a build 4–5× as long (bench/knowledge-search).
 * An index built before keeps its parameters until it is dropped (the next embedding after a restart builds it again).
 */
export const HNSW_BUILD = { m: 24, efConstruction: 128 };

const indexed = new Set<string>();
/** The HNSW index of one dimension (partial: rows of that dimension), built once (`recheck`: ask the database again). */
export async function ensureHnswIndex(db: Db, dims: number, recheck = false, build = HNSW_BUILD) {
  if (dims > HNSW_MAX_DIMS || (indexed.has(`${dims}`) && !recheck)) return;
  await db.execute(
    sql.raw(
      `create index if not exists knowledge_vectors_hnsw_${dims} on knowledge_vectors using hnsw ((embedding::vector(${dims})) vector_cosine_ops) with (m = ${Math.trunc(build.m)}, ef_construction = ${Math.trunc(build.efConstruction)}) where dims = ${dims}`,
    ),
  );
  indexed.add(`${dims}`);
}

/** Stores vectors; one already stored for the segment and model is kept (a rerun writes nothing twice). */
export async function storeVectors(
  db: Db,
  kind: VectorKind,
  rows: { segmentId: string; baseId: string; modelKey: string; embedding: number[] }[],
) {
  if (!rows.length) return;
  if (kind === "pgvector") await ensureHnswIndex(db, rows[0].embedding.length);
  const values = rows.map(
    (r) =>
      sql`(${r.segmentId}, ${r.baseId}, ${r.modelKey}, ${r.embedding.length}, ${kind === "pgvector" ? sql`${vectorLiteral(r.embedding)}::vector` : sql`${vectorLiteral(r.embedding).replace("[", "{").replace("]", "}")}::real[]`})`,
  );
  await db.execute(sql`insert into knowledge_vectors (segment_id, base_id, model_key, dims, embedding)
    values ${sql.join(values, sql`, `)} on conflict (segment_id, model_key) do nothing`);
}

export async function countVectors(db: Db, baseIds: string[], modelKey: string, fileId?: string) {
  const [row] = rowsOf<{ n: string | number }>(
    await db.execute(sql`select count(*) as n from knowledge_vectors v join knowledge_segments s on s.id = v.segment_id
      where v.base_id in ${baseIds} and v.model_key = ${modelKey} ${fileId ? sql`and s.file_id = ${fileId}` : sql``}`),
  );
  return Number(row?.n ?? 0);
}

/** Drops a base's vectors of other models (after a change of embedding model) or of one segment (after an edit). */
export async function dropVectors(db: Db, where: { baseId: string; exceptModelKey: string } | { segmentId: string }) {
  if ("segmentId" in where) await db.execute(sql`delete from knowledge_vectors where segment_id = ${where.segmentId}`);
  else await db.execute(sql`delete from knowledge_vectors where base_id = ${where.baseId} and model_key <> ${where.exceptModelKey}`);
}
