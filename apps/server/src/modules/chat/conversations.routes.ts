import {
  conversationDetail,
  conversationPage,
  conversationQuery,
  envelope,
  messageFeedbackRequest,
  tuningInput,
  tuningPushRequest,
  tuningRecord,
} from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import { requestLanguage } from "../../platform/messages.ts";
import type { ConversationsService } from "./conversations.ts";

const tags = ["conversations"];
const agentParams = z.object({ id: z.string().min(1).max(64) });

/** Conversation details and tuning records of an agent, for its owner (beyond the spec: doc 2 names the areas only). */
export const conversationsRoutes: FastifyPluginAsyncZod<{ conversations: ConversationsService }> = async (app, { conversations }) => {
  app.get(
    "/agent/:id/conversations",
    {
      schema: {
        tags,
        summary: "Every session of my agent active in the last 7, 15 or 30 days, with totals (owner only)",
        params: agentParams,
        querystring: conversationQuery,
        response: { 200: envelope(conversationPage) },
      },
    },
    async (req) => ok(await conversations.page(requireUser(req), req.params.id, req.query)),
  );
  app.get(
    "/agent/:id/conversations/export",
    {
      schema: {
        tags,
        summary: "The range's messages as a CSV or xlsx download (owner only)",
        params: agentParams,
        querystring: conversationQuery.pick({ days: true }).extend({ format: z.enum(["csv", "xlsx"]).default("xlsx") }),
      },
    },
    async (req, reply) => {
      const { days, format } = req.query;
      const data = await conversations.export(requireUser(req), req.params.id, days, format, requestLanguage(req.headers));
      const type = format === "csv" ? "text/csv; charset=utf-8" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
      return reply
        .header("content-type", type)
        .header("content-disposition", `attachment; filename="conversations-${days}d.${format}"`)
        .send(data);
    },
  );
  app.get(
    "/agent/:id/conversations/:sessionId",
    {
      schema: {
        tags,
        summary: "One session of my agent with its messages, tokens, feedback and tuning marks (owner only)",
        params: agentParams.extend({ sessionId: z.string().min(1).max(64) }),
        response: { 200: envelope(conversationDetail) },
      },
    },
    async (req) => ok(await conversations.detail(requireUser(req), req.params.id, req.params.sessionId)),
  );
  app.get(
    "/agent/:id/tuning",
    { schema: { tags, summary: "Tuning records of my agent", params: agentParams, response: { 200: envelope(z.array(tuningRecord)) } } },
    async (req) => ok(await conversations.tuningList(requireUser(req), req.params.id)),
  );
  app.post(
    "/agent/:id/tuning",
    {
      schema: {
        tags,
        summary: "Save a note and a corrected answer on one reply of my agent (one record per reply)",
        params: agentParams,
        body: tuningInput,
        response: { 200: envelope(tuningRecord) },
      },
    },
    async (req) => ok(await conversations.saveTuning(requireUser(req), req.params.id, req.body)),
  );
  app.delete(
    "/agent/:id/tuning/:tuningId",
    { schema: { tags, summary: "Delete a tuning record", params: agentParams.extend({ tuningId: z.string().min(1).max(64) }) } },
    async (req) => {
      await conversations.removeTuning(requireUser(req), req.params.id, req.params.tuningId);
      return ok(null);
    },
  );
  app.post(
    "/agent/:id/tuning/:tuningId/knowledge",
    {
      schema: {
        tags,
        summary: "Add the question and the corrected answer to one of my knowledge bases as a Q&A pair",
        params: agentParams.extend({ tuningId: z.string().min(1).max(64) }),
        body: tuningPushRequest,
        response: { 200: envelope(tuningRecord) },
      },
    },
    async (req) => ok(await conversations.pushTuning(requireUser(req), req.params.id, req.params.tuningId, req.body.knowledgeId)),
  );
};

/** The asker's like or dislike of a reply, beside the chat runtime's calls (beyond the spec). */
export const feedbackRoutes: FastifyPluginAsyncZod<{ conversations: ConversationsService }> = async (app, { conversations }) => {
  app.post(
    "/message/feedback",
    { schema: { tags, summary: "Like or dislike a reply in my own session (null withdraws)", body: messageFeedbackRequest } },
    async (req) => {
      await conversations.setFeedback(requireUser(req), req.body.message_id, req.body.feedback);
      return ok(null);
    },
  );
};
