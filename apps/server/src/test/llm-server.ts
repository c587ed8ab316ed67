import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/**
 * A local OpenAI-compatible model server for tests, e2e and the benchmark: real HTTP, SSE chunks,
 * tool calls, errors, slow and stalled streams. Each request takes the next queued script, or
 * the default behaviour (which answers follow-up prompts, calls the built-in tools when asked
 * about the time or a calculation, and otherwise echoes the question in small chunks).
 */
export interface LlmScript {
  /** Text chunks streamed as content deltas. */
  chunks?: string[];
  /** Tool calls requested in this turn (finish_reason tool_calls). */
  toolCalls?: { name: string; arguments: string }[];
  /** Delay before each chunk, ms. */
  delayMs?: number;
  /** Stop sending (keep the connection open) after this many chunks. */
  stallAfter?: number;
  /** Answer with this HTTP status and an error body instead. */
  status?: number;
  error?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface LlmRequestLog {
  path: string;
  body: Record<string, unknown>;
  authorization?: string;
  aborted: boolean;
  finished: boolean;
}

export interface LlmServer {
  url: string;
  port: number;
  requests: LlmRequestLog[];
  /** Queues scripts for the next requests (FIFO). */
  script(...scripts: (LlmScript | ((body: Record<string, unknown>) => LlmScript))[]): void;
  /** Resolves when a request's connection was closed by the client before the answer ended. */
  waitForAbort(timeoutMs?: number): Promise<LlmRequestLog>;
  close(): Promise<void>;
}

export { FOLLOW_UP_MARKER } from "../runtime/follow-ups.ts";
import { FOLLOW_UP_MARKER } from "../runtime/follow-ups.ts";

type Msg = { role: string; content: unknown; tool_calls?: unknown };
const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? "").join("") : "";

/** Questions that failed once already (see "失败一次" below). */
const failedOnce = new Set<string>();
/** Stage delays of a "慢慢查" question, ms: long enough for a person (or a test) to read each stage. */
const SLOW_STAGE_MS = 1500;

/**
 * The default behaviour when no script is queued. Words in the last question steer it for the
 * standalone server (e2e): 失败一次 fails the first time that question is asked (HTTP 500);
 * 慢慢查 asks for the time slowly (each reply stage lasts a moment); 一直算 calls the calculator
 * every round (the tool-round limit ends it); 调用 <tool> {json} calls that offered tool; 配置一条规则
 * <key>：<what> proposes a rule and 确认 confirms it (fast config); 慢 or long streams a long answer slowly.
 */
export function defaultScript(body: Record<string, unknown>): LlmScript {
  const messages = (body.messages ?? []) as Msg[];
  const last = messages[messages.length - 1];
  const lastText = textOf(last?.content);
  const question = textOf([...messages].reverse().find((m) => m.role === "user")?.content);
  if (messages.some((m) => textOf(m.content).includes(FOLLOW_UP_MARKER)))
    return { chunks: [JSON.stringify(["能再详细解释一下吗？", "有哪些注意事项？", "可以举个例子吗？"])] };
  if (question.includes("失败一次") && !failedOnce.has(question)) {
    failedOnce.add(question);
    return { status: 500, error: "upstream exploded at 10.1.2.3" };
  }
  if (question.includes("一直算")) return { toolCalls: [{ name: "calculator", arguments: JSON.stringify({ expression: "1+1" }) }] };
  if (question.includes("慢慢查"))
    return last?.role === "tool"
      ? { chunks: ["查到了：", "现在的时间", "已经", "告诉你了。"], delayMs: SLOW_STAGE_MS / 2 }
      : { toolCalls: [{ name: "current_time", arguments: "{}" }], delayMs: SLOW_STAGE_MS };
  // The rules editor's AI generation: an expression over the first parameter, or SQL over the first table.
  if (lastText.includes("【规则表达式生成】")) {
    const first = lastText.match(/^PARAMS: ([^,\n]+)/m)?.[1]?.trim() || "amount";
    return { chunks: ["```\n", `IF(${first} >= 1000, "VIP", "普通")`, "\n```"] };
  }
  if (lastText.includes("【规则SQL生成】")) {
    const table = lastText.match(/^TABLE (\w+)/m)?.[1] ?? "orders";
    return { chunks: [`SELECT count(*) FROM ${table}`] };
  }
  // Report agents: a plan over the first table (its first text and number columns), then findings.
  const system = textOf(messages.find((m) => m.role === "system")?.content);
  if (system.includes("【数据分析规划】")) return { chunks: [insightPlan(system, question)] };
  if (system.includes("【数据分析结论】")) {
    const line = lastText.split("\n").find((l) => l.includes(" | ") && /\d/.test(l)) ?? "";
    return { chunks: [`- 数据显示：${line.trim()}`, "\n- 以上结论来自只读查询。"] };
  }
  // Fast rule config: a proposal's confirmQuestion becomes the reply (it carries the proposal id).
  const confirmQuestion = last?.role === "tool" ? lastText.match(/"confirmQuestion":("(?:[^"\\]|\\.)*")/)?.[1] : undefined;
  if (confirmQuestion) return { chunks: [JSON.parse(confirmQuestion) as string] };
  // Chat insight: an analysis of the transcript (its first user line is the topic; 不满意 is negative).
  if (system.includes("【对话洞察】")) {
    const first = lastText.match(/^用户：(.*)$/m)?.[1]?.slice(0, 40) ?? "";
    const questions = [...lastText.matchAll(/^用户：(.*[？?])$/gm)].map((m) => m[1]);
    return {
      chunks: [
        JSON.stringify({
          summary: `用户询问了：${first}`,
          topics: [first],
          sentiment: lastText.includes("不满意") ? "negative" : "neutral",
          openQuestions: questions.slice(-2),
        }),
      ],
    };
  }
  if (last?.role === "tool") return { chunks: ["工具结果：", lastText.slice(0, 200)] };
  const tools = ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
  // "配置一条规则 <key>：<what>" (or "configure a rule <key>: <what>") proposes a rule over `amount`;
  // "确认" then confirms the proposal whose id the previous reply showed.
  const configure = lastText.match(/(?:配置一条规则|configure a rule)\s*([A-Za-z]\w*)?\s*[：:,，]?\s*(.*)/is);
  if (configure && tools.includes("configure_rule")) {
    const ruleKey = configure[1] ?? "chat_rule";
    const remark = configure[2]?.trim() || lastText;
    const params = [{ name: "amount", description: "消费金额" }];
    return { toolCalls: [{ name: "configure_rule", arguments: JSON.stringify({ name: `对话规则${ruleKey}`, ruleKey, remark, params }) }] };
  }
  if (/^\s*(确认|confirm)/i.test(lastText) && tools.includes("confirm_rule")) {
    const shown = [...messages].reverse().find((m) => m.role === "assistant" && /提案编号：[0-9a-f-]{36}/.test(textOf(m.content)));
    const proposalId = textOf(shown?.content).match(/提案编号：([0-9a-f-]{36})/)?.[1];
    if (proposalId) return { toolCalls: [{ name: "confirm_rule", arguments: JSON.stringify({ proposalId }) }] };
  }
  // 调用 <tool> <JSON arguments> calls any offered tool by name (e2e of bound plugins); several 调用 call
  // them all in one round.
  const calls = lastText
    .split(/(?=调用\s+[A-Za-z])/)
    .map((part) => part.match(/^调用\s+([A-Za-z][\w]*)\s*(\{.*\})?/s))
    .filter((m): m is RegExpMatchArray => !!m && tools.includes(m[1]));
  if (calls.length) return { toolCalls: calls.map((m) => ({ name: m[1], arguments: m[2]?.trim() ?? "{}" })) };
  if (tools.includes("current_time") && /几点|time|时间/i.test(lastText)) return { toolCalls: [{ name: "current_time", arguments: "{}" }] };
  const expr = lastText.match(/(?:计算|calc(?:ulate)?)\s*([\d+\-*/(). ]+)/i);
  if (tools.includes("calculator") && expr)
    return { toolCalls: [{ name: "calculator", arguments: JSON.stringify({ expression: expr[1].trim() }) }] };
  if (/慢|long/i.test(lastText)) return { chunks: Array.from({ length: 300 }, (_, i) => `第${i + 1}段。`), delayMs: 50 };
  const answer = `你好！你的问题是：${lastText}`;
  return { chunks: answer.match(/.{1,4}/gsu) ?? [answer] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What /audio/transcriptions answers for an audible recording when no script is queued. */
export const TRANSCRIPTION_TEXT = "你好，这是语音识别的结果";

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** The parts of a multipart/form-data body, or null when the body is not one. */
export function parseMultipart(raw: Buffer, contentType: string): MultipartPart[] | null {
  const boundary = contentType.match(/multipart\/form-data;.*boundary="?([^";]+)"?/i)?.[1];
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let at = raw.indexOf(delimiter);
  if (at < 0) return null;
  while (true) {
    at += delimiter.length;
    if (raw.subarray(at, at + 2).toString() === "--") break;
    const headerEnd = raw.indexOf("\r\n\r\n", at);
    const next = raw.indexOf(delimiter, headerEnd);
    if (headerEnd < 0 || next < 0) return null;
    const headers = raw.subarray(at, headerEnd).toString("utf8");
    const disposition = headers.match(/content-disposition:\s*form-data;([^\r\n]*)/i)?.[1] ?? "";
    const name = disposition.match(/\bname="([^"]*)"/)?.[1];
    if (name === undefined) return null;
    parts.push({
      name,
      filename: disposition.match(/\bfilename="([^"]*)"/)?.[1],
      contentType: headers.match(/content-type:\s*([^\r\n]+)/i)?.[1].trim(),
      data: raw.subarray(headerEnd + 4, next - 2), // the part ends with CRLF before the delimiter
    });
    at = next;
  }
  return parts;
}

export interface WavInfo {
  /** From the fmt chunk; undefined when the file has none (a bare header). */
  format?: number;
  channels?: number;
  sampleRate?: number;
  bitsPerSample?: number;
  /** Samples per channel in the data chunk (16-bit PCM only, else 0). */
  samples: number;
  durationMs: number;
  /** Largest absolute sample, 0 to 1. */
  peak: number;
}

/** A RIFF/WAVE file's format and loudness, or null when the bytes are not a WAV. */
export function parseWav(b: Buffer): WavInfo | null {
  if (b.length < 12 || b.toString("ascii", 0, 4) !== "RIFF" || b.toString("ascii", 8, 12) !== "WAVE") return null;
  const info: WavInfo = { samples: 0, durationMs: 0, peak: 0 };
  for (let o = 12; o + 8 <= b.length; ) {
    const id = b.toString("ascii", o, o + 4);
    const size = b.readUInt32LE(o + 4);
    const start = o + 8;
    if (id === "fmt " && size >= 16 && start + 16 <= b.length) {
      info.format = b.readUInt16LE(start);
      info.channels = b.readUInt16LE(start + 2);
      info.sampleRate = b.readUInt32LE(start + 4);
      info.bitsPerSample = b.readUInt16LE(start + 14);
    }
    if (id === "data" && info.format === 1 && info.bitsPerSample === 16 && info.channels) {
      const end = Math.min(b.length, start + size);
      let peak = 0;
      for (let i = start; i + 1 < end; i += 2) peak = Math.max(peak, Math.abs(b.readInt16LE(i)) / 0x8000);
      info.peak = peak;
      info.samples = Math.floor((end - start) / 2 / info.channels);
      info.durationMs = info.sampleRate ? Math.round((info.samples / info.sampleRate) * 1000) : 0;
    }
    o = start + size + (size % 2);
  }
  return info;
}

export async function startLlmServer(opts: { port?: number; host?: string } = {}): Promise<LlmServer> {
  const queue: (LlmScript | ((body: Record<string, unknown>) => LlmScript))[] = [];
  const requests: LlmRequestLog[] = [];
  const abortWaiters: ((r: LlmRequestLog) => void)[] = [];

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const path = (req.url ?? "").split("?")[0];
    let body: Record<string, unknown> = {};
    if ((req.headers["content-type"] ?? "").includes("json")) {
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        body = {};
      }
    }
    const log: LlmRequestLog = { path, body, authorization: req.headers.authorization, aborted: false, finished: false };
    requests.push(log);
    res.on("close", () => {
      if (!log.finished) {
        log.aborted = true;
        for (const w of abortWaiters.splice(0)) w(log);
      }
    });
    const json = (status: number, data: unknown) => {
      log.finished = true;
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(data));
    };

    if (req.method === "GET" && path.endsWith("/models"))
      return json(200, { object: "list", data: [{ id: "test-model", object: "model" }] });
    if (path.endsWith("/audio/transcriptions")) {
      // Like a real transcription API: a multipart form with a WAV `file`; anything else is refused.
      const form = parseMultipart(raw, String(req.headers["content-type"] ?? ""));
      const file = form?.find((p) => p.name === "file" && p.filename !== undefined);
      const wav = file && parseWav(file.data);
      body = {
        ...Object.fromEntries((form ?? []).filter((p) => p.filename === undefined).map((p) => [p.name, p.data.toString("utf8")])),
        ...(file ? { file: { filename: file.filename, contentType: file.contentType, bytes: file.data.length, wav } } : {}),
      };
      log.body = body;
      if (!file) return json(400, { error: { message: "a multipart field `file` is required" } });
      if (!wav) return json(400, { error: { message: "unsupported audio: not a RIFF/WAVE file" } });
      if (wav.sampleRate !== undefined && (wav.format !== 1 || wav.channels !== 1 || wav.sampleRate !== 16_000 || wav.bitsPerSample !== 16))
        return json(400, {
          error: {
            message: `expected 16 kHz mono 16-bit PCM, got ${wav.sampleRate} Hz, ${wav.channels} channel(s), ${wav.bitsPerSample} bit`,
          },
        });
      const next = queue.shift();
      const script = typeof next === "function" ? next(body) : next;
      if (script?.status) return json(script.status, { error: { message: script.error ?? "error" } });
      if (script?.chunks) return json(200, { text: script.chunks.join("") });
      // Silence transcribes to nothing, as with a real model.
      return json(200, { text: wav.samples > 0 && wav.peak < 0.01 ? "" : TRANSCRIPTION_TEXT });
    }
    if (path.endsWith("/embeddings")) {
      const input = Array.isArray(body.input) ? body.input : [body.input];
      return json(200, {
        object: "list",
        data: input.map((_, i) => ({ object: "embedding", index: i, embedding: [0.1, 0.2, 0.3] })),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
    }
    if (!path.endsWith("/chat/completions")) return json(404, { error: { message: "not found" } });

    const next = queue.shift();
    const script = next ? (typeof next === "function" ? next(body) : next) : defaultScript(body);
    if (script.status) return json(script.status, { error: { message: script.error ?? "upstream error", type: "test_error" } });
    const model = String(body.model ?? "test-model");
    const usage = script.usage ?? { prompt_tokens: 10, completion_tokens: (script.chunks ?? []).length };
    const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
    const created = Math.floor(Date.now() / 1000);

    if (!body.stream) {
      const toolCalls = script.toolCalls?.map((t, i) => ({ id: `call_${i}`, type: "function", function: t }));
      return json(200, {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: (script.chunks ?? []).join(""), ...(toolCalls ? { tool_calls: toolCalls } : {}) },
            finish_reason: toolCalls ? "tool_calls" : "stop",
          },
        ],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      });
    }

    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    const chunk = (delta: unknown, finish: string | null = null) =>
      send({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] });
    chunk({ role: "assistant", content: "" });
    let sent = 0;
    for (const text of script.chunks ?? []) {
      if (res.destroyed) return;
      if (script.stallAfter !== undefined && sent >= script.stallAfter) return; // keep the connection open, send nothing more
      if (script.delayMs) await sleep(script.delayMs);
      if (res.destroyed) return;
      chunk({ content: text });
      sent++;
    }
    if (script.stallAfter !== undefined && sent >= script.stallAfter) return;
    if (script.toolCalls?.length && script.delayMs && !script.chunks?.length) {
      // Slowly, like a model thinking first and then writing the call's arguments.
      for (const [i, t] of script.toolCalls.entries()) {
        await sleep(script.delayMs);
        if (res.destroyed) return;
        chunk({ tool_calls: [{ index: i, id: `call_${Date.now()}_${i}`, type: "function", function: { name: t.name, arguments: "" } }] });
        await sleep(script.delayMs);
        if (res.destroyed) return;
        chunk({ tool_calls: [{ index: i, function: { arguments: t.arguments } }] });
      }
    } else if (script.toolCalls?.length) {
      script.toolCalls.forEach((t, i) => {
        chunk({
          tool_calls: [{ index: i, id: `call_${Date.now()}_${i}`, type: "function", function: { name: t.name, arguments: t.arguments } }],
        });
      });
    }
    chunk({}, script.toolCalls?.length ? "tool_calls" : "stop");
    send({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      choices: [],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
    res.write("data: [DONE]\n\n");
    log.finished = true;
    res.end();
  });
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    script: (...s) => queue.push(...s),
    waitForAbort: (timeoutMs = 2000) =>
      new Promise((resolve, reject) => {
        const already = requests.find((r) => r.aborted);
        if (already) return resolve(already);
        const timer = setTimeout(() => reject(new Error("upstream saw no abort")), timeoutMs);
        abortWaiters.push((r) => {
          clearTimeout(timer);
          resolve(r);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Standalone: `npx tsx apps/server/src/test/llm-server.ts` (LLM_PORT, default 8239) for e2e and manual runs.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const s = await startLlmServer({ port: Number(process.env.LLM_PORT ?? 8239) });
  console.log(`test LLM server at ${s.url}`);
}

/** The test model's analysis plan: a grouped sum and a row count over the first table offered. */
function insightPlan(system: string, question: string) {
  const m = system.match(/^TABLE (\w+): (.*)$/m);
  const table = m?.[1] ?? "orders";
  const cols = (m?.[2] ?? "").split(", ").map((c) => c.split(" "));
  const text = cols.find((c) => c[1] === "text")?.[0] ?? "customer";
  const num = cols.find((c) => c[1] === "number" || c[1] === "integer")?.[0] ?? "amount";
  // 删除 asks for statements the read-only guard must refuse (so the report fails).
  const bad = question.includes("删除");
  const first = bad ? `DELETE FROM ${table}` : `SELECT ${text}, sum(${num}) AS total FROM ${table} GROUP BY ${text} ORDER BY total DESC`;
  return JSON.stringify({
    title: `${table} 分析报告`,
    steps: [
      { title: `按${text}汇总${num}`, sql: first, chart: "bar" },
      { title: "记录数", sql: bad ? `DROP TABLE ${table}` : `SELECT count(*) AS n FROM ${table}`, chart: "table" },
    ],
  });
}
