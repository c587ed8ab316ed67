import { Jieba } from "@node-rs/jieba";
import { dict } from "@node-rs/jieba/dict.js";

let jieba: Jieba | undefined;
/** Loaded on first use: the dictionary takes a moment and most processes never need it. */
const cutter = () => (jieba ??= Jieba.withDict(dict));

/** A word worth indexing has a letter, digit or CJK character (punctuation and spaces are dropped). */
const WORDLIKE = /[\p{L}\p{N}]/u;

/** Words that say nothing about a question; dropped from queries (not from the index). */
const STOPWORDS = new Set(
  "的 了 是 在 我 你 他 她 它 们 和 与 及 或 就 都 也 还 又 吗 呢 吧 啊 呀 么 什么 怎么 怎样 如何 为什么 哪些 哪个 哪里 多少 请问 请 一下 有 没有 这 那 这个 那个 可以 能 会 要 想 对 把 被 给 从 到 而 之 其 a an the of to in on at is are was be and or for with what how why which who".split(
    " ",
  ),
);

/** The jieba search-mode words of a text, space-joined: what the `simple` tsvector indexes. */
export function indexTerms(text: string): string {
  if (!text) return "";
  return cutter()
    .cutForSearch(text, true)
    .filter((w) => WORDLIKE.test(w))
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean)
    .join(" ");
}

/** The distinct words of a question that carry meaning (stopwords dropped, unless nothing else is left). */
export function queryTerms(query: string): string[] {
  const words = [...new Set(indexTerms(query).split(" ").filter(Boolean))];
  const meaningful = words.filter((w) => !STOPWORDS.has(w));
  return meaningful.length ? meaningful : words;
}
