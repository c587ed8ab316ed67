import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local rerank server for tests, speaking the `/rerank` protocol of Jina, Cohere, Xinference and
 * SiliconFlow: POST {base}/rerank {model, query, documents, top_n} → {results: [{index, relevance_score}]},
 * best first, at most top_n. Its relevance is the share of the query's distinct characters a document
 * holds (unless a scorer is given); queued statuses answer the next requests with that HTTP error.
 */
export interface RerankRequestLog {
  path: string;
  body: { model?: string; query?: string; documents?: string[]; top_n?: number };
  authorization?: string;
}

export type RerankScorer = (query: string, document: string) => number;

const charCoverage: RerankScorer = (query, document) => {
  const wanted = new Set([...query].filter((c) => c.trim()));
  return wanted.size ? [...wanted].filter((c) => document.includes(c)).length / wanted.size : 0;
};

export async function startRerankServer(scorer: RerankScorer = charCoverage) {
  const requests: RerankRequestLog[] = [];
  const failures: number[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const body = JSON.parse(raw || "{}") as RerankRequestLog["body"];
      requests.push({ path: req.url ?? "", body, authorization: req.headers.authorization });
      const fail = failures.shift();
      if (fail || req.method !== "POST" || req.url !== "/v1/rerank") {
        res.writeHead(fail ?? 404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `scripted ${fail ?? 404}` } }));
        return;
      }
      const documents = body.documents ?? [];
      const results = documents
        .map((document, index) => ({ index, relevance_score: scorer(body.query ?? "", document) }))
        .sort((a, b) => b.relevance_score - a.relevance_score)
        .slice(0, body.top_n ?? documents.length);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "rerank", results, usage: { total_tokens: documents.length } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    /** The next requests answer with these HTTP statuses. */
    failNext: (...statuses: number[]) => failures.push(...statuses),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
