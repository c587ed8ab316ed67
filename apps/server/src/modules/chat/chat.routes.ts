import {
  type ChatEvent,
  chatAgentInfo,
  chatRequest,
  chatStreamQuery,
  clearSessionRequest,
  deleteSessionRequest,
  envelope,
  exportQuery,
  heartbeatRequest,
  memoryList,
  memoryQuery,
  resetMemoryRequest,
  sessionDetail,
  sessionList,
  sessionListQuery,
  setMemoryRequest,
  shareTokenRequest,
  shareTokenResponse,
  stopReplyRequest,
  transcription,
  updateSessionTitleRequest,
} from "@agentfair/contracts";
import type { ServerResponse } from "node:http";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { badRequest, tokenInvalid } from "../../platform/errors.ts";
import { ok, readUploadedFile } from "../../platform/http.ts";
import { requestLanguage } from "../../platform/messages.ts";
import type { ModelsService } from "../models/models.service.ts";
import type { ChatService } from "./chat.service.ts";

const tags = ["chat"];

function writeStreamHead(res: ServerResponse, headers: Record<string, string>) {
  res.writeHead(200, {
    ...headers,
    "content-type": "application/x-ndjson; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    "x-accel-buffering": "no",
  });
}

/**
 * Writes a stream's event lines. Lines emitted in one go (a content delta and its progress, the
 * events of a reply read back) leave in one write: each write wakes the reader (nginx), which costs
 * more than the bytes. They leave at the end of the current job, before the next one runs.
 * (A class: an open stream holds one small object, not closures and their scope.)
 */
class LineWriter {
  private pending = "";

  constructor(private readonly res: ServerResponse) {}

  write(event: ChatEvent) {
    if (!this.pending) queueMicrotask(() => this.flush());
    this.pending += `${JSON.stringify(event)}\n`;
  }

  flush() {
    const lines = this.pending;
    this.pending = "";
    const res = this.res;
    if (!lines || res.destroyed || res.writableEnded) return;
    res.write(lines);
    // Node corks a chunked response until the next tick, which waits for every pending promise
    // job (the reply's own work, PGlite queries): the lines are sent now instead.
    res.socket?.uncork();
  }
}

/** The chat runtime: /agent/agent_runtime/... */
export const chatRoutes: FastifyPluginAsyncZod<{ chat: ChatService; models: ModelsService }> = async (app, { chat, models }) => {
  app.post(
    "/chat",
    {
      schema: {
        tags,
        summary: "Ask the agent: answers with JSON event lines (application/x-ndjson), see contracts chat-stream",
        description: "Chat requests carry no bearer header: `token` in the body identifies the caller. `tenantId` is ignored.",
        body: chatRequest,
        security: [],
      },
    },
    async (req, reply) => {
      const res = reply.raw;
      const received = performance.now();
      let firstToken = true;
      // The asker's connection. Its going away before the stream starts cancels the request (and a
      // charge not yet made). Once it streams, the reply is its own: it goes on, readable again through
      // /chat_stream from any process, until it ends, /stop_reply stops it, or nobody has read it for
      // CHAT_UNREAD_STOP_MS after the asker went (see ReplyStreams.open).
      const asker = new AbortController();
      res.on("close", () => asker.abort());
      const caller = await chat.callerFromToken(req.body.token, req.caller);
      if (!caller) throw tokenInvalid();
      const place = await chat.admit(caller, req.ip);
      try {
        const prepared = await chat.prepare(caller, req.body, asker.signal);
        const lang = requestLanguage(req.headers);
        // Lines go straight to the socket (no stream in between), so the first token leaves at once.
        reply.hijack();
        if (asker.signal.aborted) return void res.destroy();
        const ended = chat.streamStarted();
        writeStreamHead(res, reply.getHeaders() as Record<string, string>);
        const lines = new LineWriter(res);
        try {
          await chat.runStreamed(prepared, lang, asker.signal, (event) => {
            if (firstToken && event.type === "content") {
              firstToken = false;
              chat.firstTokenSent((performance.now() - received) / 1000);
            }
            lines.write(event);
          });
        } finally {
          // The place is free before the client reads the end, so its next question is admitted.
          await place.release().catch((err) => req.log.warn({ err }, "releasing a stream place failed"));
          lines.flush();
          res.end();
          ended();
        }
      } finally {
        await place.release();
      }
    },
  );

  app.get(
    "/chat_stream",
    {
      schema: {
        tags,
        summary:
          "Beyond the spec: a reply's events after the first `after` (JSON event lines, as /chat), from whichever process writes it; ends with its stop event",
        querystring: chatStreamQuery,
      },
    },
    async (req, reply) => {
      const caller = requireUser(req);
      const res = reply.raw;
      const controller = new AbortController();
      res.on("close", () => controller.abort());
      const lang = requestLanguage(req.headers);
      let started = false;
      const start = () => {
        if (started) return;
        started = true;
        reply.hijack();
        writeStreamHead(res, reply.getHeaders() as Record<string, string>);
      };
      const lines = new LineWriter(res);
      try {
        // The owner check comes first, so a foreign or unknown reply is a plain not-found.
        await chat.readReply(caller, req.query.uuid, req.query.after, lang, controller.signal, (event) => {
          start();
          lines.write(event);
        });
      } catch (err) {
        if (!started) throw err;
        req.log.warn({ err }, "reading a reply stream failed");
      }
      start();
      lines.flush();
      res.end();
    },
  );

  app.post(
    "/stop_reply",
    {
      schema: {
        tags,
        summary: "Beyond the spec: stops one of the caller's replies wherever it runs (it ends as stopped and is saved)",
        body: stopReplyRequest,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await chat.replies.stop(requireUser(req), req.body.uuid);
      return ok(null);
    },
  );

  app.get(
    "/memory",
    {
      schema: {
        tags,
        summary: "Beyond the spec: the agent's memory variables with the caller's values (the session's for session variables)",
        querystring: memoryQuery,
        response: { 200: envelope(memoryList) },
      },
    },
    async (req) => ok(await chat.memoryList(requireUser(req), { ...req.query, release: req.query.release === "true" })),
  );

  app.post(
    "/memory",
    {
      schema: {
        tags,
        summary: "Beyond the spec: sets the caller's value of one memory variable",
        body: setMemoryRequest,
        response: { 200: envelope(memoryList) },
      },
    },
    async (req) => ok(await chat.memorySet(requireUser(req), req.body)),
  );

  app.post(
    "/memory/reset",
    {
      schema: {
        tags,
        summary: "Beyond the spec: one memory variable (or all) back to its default for the caller",
        body: resetMemoryRequest,
        response: { 200: envelope(memoryList) },
      },
    },
    async (req) => ok(await chat.memoryReset(requireUser(req), req.body)),
  );

  app.get(
    "/agent_info",
    {
      schema: {
        tags,
        summary: "The agent as the chat page shows it (prologue, preset questions, skills, chat count)",
        querystring: z.object({ id: z.string().min(1).max(64), release: z.enum(["true", "false"]).default("true") }),
        response: { 200: envelope(chatAgentInfo) },
      },
    },
    async (req) => ok(await chat.agentInfo(requireUser(req), req.query.id, req.query.release === "true")),
  );

  app.get(
    "/session_list",
    {
      schema: {
        tags,
        summary: "The caller's sessions, newest first (page size 100)",
        querystring: sessionListQuery,
        response: { 200: envelope(sessionList) },
      },
    },
    async (req) => ok(await chat.list(requireUser(req), req.query)),
  );

  app.get(
    "/session/:id",
    {
      schema: {
        tags,
        summary: "One session with its messages",
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: envelope(sessionDetail) },
      },
    },
    async (req) => ok(await chat.detail(requireUser(req), req.params.id, requestLanguage(req.headers))),
  );

  app.post(
    "/update_session_title",
    {
      schema: {
        tags,
        summary: "Rename a session (not blank, at most 15 characters)",
        body: updateSessionTitleRequest,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await chat.rename(requireUser(req), req.body.session_id, req.body.new_title);
      return ok(null, "修改成功");
    },
  );

  app.post(
    "/delete_session",
    { schema: { tags, summary: "Delete a session", body: deleteSessionRequest, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await chat.remove(requireUser(req), req.body.session_id);
      return ok(null, "删除成功");
    },
  );

  app.post(
    "/clear_session",
    { schema: { tags, summary: "Clear a session's history", body: clearSessionRequest, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await chat.clear(requireUser(req), req.body.session_id);
      return ok(null);
    },
  );

  app.get(
    "/export",
    { schema: { tags, summary: "Export a session as Markdown or JSON (a file download)", querystring: exportQuery } },
    async (req, reply) => {
      const { session_id, format, tz } = req.query;
      const file = await chat.export(requireUser(req), session_id, format, requestLanguage(req.headers), tz);
      return reply
        .header("content-type", file.contentType)
        .header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
        .send(file.body);
    },
  );

  app.post(
    "/share_token",
    {
      schema: {
        tags,
        summary: "A signed, revocable share token: read-only access to one session",
        body: shareTokenRequest,
        response: { 200: envelope(shareTokenResponse) },
      },
    },
    async (req) => ok(await chat.shareToken(requireUser(req), req.body.session_id)),
  );

  app.post(
    "/revoke_share",
    { schema: { tags, summary: "Revoke every share link of a session", body: shareTokenRequest, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await chat.revokeShares(requireUser(req), req.body.session_id);
      return ok(null);
    },
  );

  app.get(
    "/share",
    {
      schema: {
        tags,
        summary: "A shared session, read-only (any signed-in user with a valid share token)",
        querystring: z.object({ shareToken: z.string().min(1).max(200) }),
        response: {
          200: envelope(
            z.object({
              session: sessionDetail,
              agent: z.object({ id: z.string(), agentName: z.string(), agentIcon: z.string(), agentIconBackground: z.string() }),
            }),
          ),
        },
      },
    },
    async (req) => {
      requireUser(req);
      return ok(await chat.shared(req.query.shareToken, requestLanguage(req.headers)));
    },
  );

  app.post(
    "/usage_heartbeat",
    {
      schema: {
        tags,
        summary: "Usage heartbeat, every 10 s while the chat page is open",
        body: heartbeatRequest,
        response: { 200: envelope(z.object({ seconds: z.number() })) },
      },
    },
    async (req) => ok(await chat.heartbeat(requireUser(req), req.body)),
  );

  app.post(
    "/speech_to_text",
    {
      schema: {
        tags,
        summary: "Transcribe a 16 kHz recording (multipart field `file`) with the configured audio model",
        consumes: ["multipart/form-data"],
        response: { 200: envelope(transcription) },
      },
    },
    async (req) => {
      const caller = requireUser(req);
      await chat.consumeSpeech(caller);
      if (!req.isMultipart()) throw badRequest("badRequest", { detail: "multipart" });
      const file = await req.file();
      if (!file) throw badRequest("badRequest", { detail: "file" });
      const data = await readUploadedFile(file, () => badRequest("chatUploadTooLarge"));
      const text = await models.transcribe(caller.tenantId, data, file.filename || "audio.wav", file.mimetype || "audio/wav");
      return ok({ text });
    },
  );
};
