import {
  chatInsightList,
  chatInsightListQuery,
  envelope,
  findByAgentIdQuery,
  getInsightUrlQuery,
  INSIGHT_FAILED_CODE,
  insightReport,
  insightReportItem,
  insightUrlResult,
  reportExportQuery,
  reportIdQuery,
  reportShareResult,
  reportUpdateRequest,
  sharedReportQuery,
} from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import type { ChatInsightService } from "./chat-insight.service.ts";
import type { InsightService } from "./insight.service.ts";

const tags = ["insight"];

/** The chat's poll: /agent/agent_runtime/get_insight_url (doc 2 §7). A failed report answers code 500, which ends the poll. */
export const insightRuntimeRoutes: FastifyPluginAsyncZod<{ insight: InsightService; chatInsight: ChatInsightService }> = async (
  app,
  { insight, chatInsight },
) => {
  app.get(
    "/get_insight_url",
    {
      schema: {
        tags,
        summary: "The report of a session (or one reply): steps so far, and its page URL once ready; code 500 when it failed",
        querystring: getInsightUrlQuery,
        response: { 200: envelope(insightUrlResult.nullable()) },
      },
    },
    async (req) => {
      const result = await insight.urlFor(requireUser(req), req.query.session_id, req.query.message_id);
      if ("failed" in result) return { code: INSIGHT_FAILED_CODE, msg: result.failed, data: null };
      return ok(result);
    },
  );
  // The chat analysis calls (doc 2 §7): the analyses of an agent's conversations, for its owner.
  app.get(
    "/chat_insight_list",
    {
      schema: {
        tags,
        summary: "Chat insight: the analyses (topics, sentiment, open questions) of the caller's agent's conversations, newest first",
        querystring: chatInsightListQuery,
        response: { 200: envelope(chatInsightList) },
      },
    },
    async (req) => ok(await chatInsight.list(requireUser(req), req.query)),
  );
};

/**
 * Reports under /prod-api (the report token of the second cookie, or the web token, both work):
 * the spec's findByAgentId lookup, and beside it (ours) one report, recent reports, share links and export.
 */
export const insightReportRoutes: FastifyPluginAsyncZod<{ insight: InsightService }> = async (app, { insight }) => {
  const base = "/dashboard/tReportBuilder";
  app.get(
    `${base}/findByAgentId`,
    {
      schema: {
        tags,
        summary: "The caller's reports of a report agent, newest first",
        querystring: findByAgentIdQuery,
        response: { 200: envelope(z.array(insightReportItem)) },
      },
    },
    async (req) => ok(await insight.findByAgentId(requireUser(req), req.query.id)),
  );
  app.get(
    `${base}/recent`,
    {
      schema: {
        tags,
        summary: "The caller's 20 newest reports (beyond the spec)",
        response: { 200: envelope(z.array(insightReportItem)) },
      },
    },
    async (req) => ok(await insight.recent(requireUser(req))),
  );
  app.get(
    `${base}/report`,
    {
      schema: {
        tags,
        summary: "One of the caller's reports (beyond the spec)",
        querystring: reportIdQuery,
        response: { 200: envelope(insightReport) },
      },
    },
    async (req) => ok(await insight.get(requireUser(req), req.query.id)),
  );
  app.post(
    `${base}/share`,
    {
      schema: {
        tags,
        summary: "A share link token: opens the report read-only without signing in (beyond the spec)",
        body: reportIdQuery,
        response: { 200: envelope(reportShareResult) },
      },
    },
    async (req) => ok(await insight.share(requireUser(req), req.body.id)),
  );
  app.post(
    `${base}/update`,
    {
      schema: {
        tags,
        summary:
          "Report builder: save the title and the blocks' order, titles and views (bar, line, pie, table) of one of the caller's finished reports (beyond the spec)",
        body: reportUpdateRequest,
        response: { 200: envelope(insightReport) },
      },
    },
    async (req) => ok(await insight.update(requireUser(req), req.body)),
  );
  app.post(
    `${base}/refresh`,
    {
      schema: {
        tags,
        summary: "Report builder: run a finished report's stored read-only SQL again over the latest data (beyond the spec)",
        body: reportIdQuery,
        response: { 200: envelope(insightReport) },
      },
    },
    async (req) => ok(await insight.refresh(requireUser(req), req.body.id)),
  );
  app.get(
    `${base}/shared`,
    {
      schema: {
        tags,
        summary: "A finished report by its share token, read-only (beyond the spec)",
        querystring: sharedReportQuery,
        security: [],
        response: { 200: envelope(insightReport) },
      },
    },
    async (req) => ok(await insight.shared(req.query.token)),
  );
  app.get(
    `${base}/export`,
    {
      schema: {
        tags,
        summary: "Export a finished report as a self-contained HTML page or Markdown (a file download)",
        querystring: reportExportQuery,
      },
    },
    async (req, reply) => {
      const file = await insight.exportReport(requireUser(req), req.query.id, req.query.format);
      return reply
        .header("content-type", file.type)
        .header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .send(file.body);
    },
  );
};
