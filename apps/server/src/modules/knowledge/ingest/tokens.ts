import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";

/**
 * cl100k token counts, exactly as js-tiktoken's `encode(text).length` (ordinary text; special-token markers are
 * counted as text instead of throwing). js-tiktoken merges byte pairs by rebuilding every pair key on every step,
 * which is quadratic with a large constant on long runs of Chinese (one pre-token per run between punctuation);
 * counting is on the ingestion hot path, so this merges with the same ranks and the same order (lowest rank,
 * leftmost first) but only looks up the two pairs a merge changes, and remembers the count of each pre-token.
 */
let ranks: Map<string, number> | undefined;
let pattern: RegExp | undefined;
const cache = new Map<string, number>();
const MAX_CACHED = 200_000;
const utf8 = new TextEncoder();

function load(): Map<string, number> {
  if (!ranks) {
    // The ranks as js-tiktoken parses them (its internal map: keys are comma-joined bytes).
    ranks = (new Tiktoken(cl100k) as unknown as { rankMap: Map<string, number> }).rankMap;
    pattern = new RegExp(cl100k.pat_str, "gu");
  }
  return ranks;
}

export function countTokens(text: string): number {
  if (!text) return 0;
  const rankMap = load();
  let total = 0;
  for (const match of text.matchAll(pattern!)) {
    const piece = match[0];
    let n = cache.get(piece);
    if (n === undefined) {
      n = pieceTokens(utf8.encode(piece), rankMap);
      if (cache.size >= MAX_CACHED) cache.clear();
      cache.set(piece, n);
    }
    total += n;
  }
  return total;
}

function pieceTokens(bytes: Uint8Array, rankMap: Map<string, number>): number {
  if (bytes.length <= 1 || rankMap.has(bytes.join(","))) return 1;
  // boundaries[i] is where part i starts; the last entry is the end of the piece.
  const boundaries = Array.from({ length: bytes.length + 1 }, (_, i) => i);
  const pairRank = (i: number) =>
    i + 2 < boundaries.length ? (rankMap.get(bytes.subarray(boundaries[i], boundaries[i + 2]).join(",")) ?? Infinity) : Infinity;
  const pairRanks = Array.from({ length: boundaries.length - 2 }, (_, i) => pairRank(i));
  while (pairRanks.length > 0) {
    let best = 0;
    for (let i = 1; i < pairRanks.length; i++) if (pairRanks[i] < pairRanks[best]) best = i;
    if (pairRanks[best] === Infinity) break;
    boundaries.splice(best + 1, 1);
    pairRanks.splice(best + 1, 1);
    pairRanks[best] = pairRank(best);
    if (best > 0) pairRanks[best - 1] = pairRank(best - 1);
  }
  return boundaries.length - 1;
}
