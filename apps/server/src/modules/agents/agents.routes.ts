import {
  addCountsRequest,
  agentCard,
  agentDetail,
  agentDraft,
  agentPage,
  agentPublic,
  applyPage,
  applyPageRequest,
  copyResponse,
  draftResponse,
  envelope,
  introRequest,
  label,
  launchPageRequest,
  marketPage,
  minePageRequest,
  quickAddRequest,
  rejectRequest,
  releaseRequest,
  saveApplyRequest,
  shelfRequest,
  useCountByIdsRequest,
  useCountRow,
  versionDetail,
  versionSummary,
  wasCopiedResponse,
  widgetResponse,
} from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok, sendOk } from "../../platform/http.ts";
import { translate, requestLanguage } from "../../platform/messages.ts";
import type { AgentsService } from "./agents.service.ts";

const tags = ["agents"];
const idParams = z.object({ id: z.string().min(1).max(64) });
type Opts = { agents: AgentsService };

/** Doc 1 §7 "Agents", under /agent_api. */
export const agentsRoutes: FastifyPluginAsyncZod<Opts> = async (app, { agents }) => {
  app.post(
    "/api/agent/launch/page",
    {
      schema: {
        tags,
        summary: "Marketplace: listed agents in the caller's tenant scope (size 99)",
        body: launchPageRequest,
        response: { 200: envelope(marketPage) },
      },
    },
    async (req, reply) => sendOk(reply, await agents.marketplace(req.caller, req.body)),
  );

  app.post(
    "/api/agent/page-created-by-me",
    { schema: { tags, summary: "My agents (created or copied by me)", body: minePageRequest, response: { 200: envelope(agentPage) } } },
    async (req) => ok(await agents.mine(req.caller, req.body)),
  );

  app.get(
    "/api/agent/detail/:id",
    {
      schema: {
        tags,
        summary: "What a hirer should know before starting an agent",
        params: idParams,
        response: { 200: envelope(agentDetail) },
      },
    },
    async (req) => ok(await agents.detail(req.caller, req.params.id)),
  );

  app.delete(
    "/api/agent/:id",
    { schema: { tags, summary: "Delete one of my agents", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await agents.remove(requireUser(req), req.params.id);
      return ok(null, translate("deleteSuccess", requestLanguage(req.headers)));
    },
  );

  app.put(
    "/api/agent/intro/:id",
    {
      schema: {
        tags,
        summary: "Rename / edit the intro of my agent",
        params: idParams,
        body: introRequest,
        response: { 200: envelope(agentCard) },
      },
    },
    async (req) => ok(await agents.intro(requireUser(req), req.params.id, req.body)),
  );

  app.get(
    "/api/agent/was-copied/:id",
    { schema: { tags, summary: "Whether I copied this agent before", params: idParams, response: { 200: envelope(wasCopiedResponse) } } },
    async (req) => ok(await agents.wasCopied(requireUser(req), req.params.id)),
  );

  for (const path of ["/api/agent/quick/copy-from-launch/:id", "/api/agent/quick/copy-from-launch_share/:id"]) {
    app.post(
      path,
      {
        schema: {
          tags,
          summary: "Copy the released version into my agents (priced agents are charged)",
          params: idParams,
          response: { 200: envelope(copyResponse) },
        },
      },
      async (req) => ok(await agents.copy(requireUser(req), req.params.id), translate("copySuccess", requestLanguage(req.headers))),
    );
  }

  app.put(
    "/api/agent/launchVersionDisabled/:id",
    {
      schema: {
        tags,
        summary: "Take a listed agent off the shelf (admin: also back on)",
        params: idParams,
        body: shelfRequest,
        response: { 200: envelope(agentCard) },
      },
    },
    async (req) => ok(await agents.setShelf(requireUser(req), req.params.id, req.body.disabled)),
  );

  app.post(
    "/api/agentApply/saveInfo",
    {
      schema: {
        tags,
        summary: "Submit my released agent, its card, price and copy choice for listing ('审核中')",
        body: saveApplyRequest,
        response: { 200: envelope(z.object({ status: z.literal("PENDING") })) },
      },
    },
    async (req) =>
      ok(
        await agents.submitForListing(requireUser(req), req.body.agentId, req.body.copyable),
        translate("applyPending", requestLanguage(req.headers)),
      ),
  );

  app.post(
    "/api/agentApply/page",
    {
      schema: { tags, summary: "Administrator: the listing review queue", body: applyPageRequest, response: { 200: envelope(applyPage) } },
    },
    async (req) => ok(await agents.applyPage(requireUser(req), req.body)),
  );

  app.post(
    "/api/agentApply/approve/:id",
    { schema: { tags, summary: "Administrator: approve a listing request", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await agents.review(requireUser(req), req.params.id, { approve: true });
      return ok(null);
    },
  );

  app.post(
    "/api/agentApply/reject/:id",
    {
      schema: {
        tags,
        summary: "Administrator: reject a listing request with a reason",
        params: idParams,
        body: rejectRequest,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await agents.review(requireUser(req), req.params.id, { approve: false, reason: req.body.reason });
      return ok(null);
    },
  );

  app.get("/api/lables/list", { schema: { tags, summary: "Category labels", response: { 200: envelope(z.array(label)) } } }, async () =>
    ok(await agents.labels()),
  );

  app.get(
    "/api/widget/:id",
    {
      schema: {
        tags,
        summary: "The agent's chat widget card (identity, prologue, preset questions)",
        params: idParams,
        response: { 200: envelope(widgetResponse) },
      },
    },
    async (req) => ok(await agents.widget(req.caller, req.params.id)),
  );

  app.post(
    "/api/agentSession/addCounts",
    {
      schema: {
        tags,
        summary: "Counts a chat with the agent (once per user, agent and day)",
        body: addCountsRequest,
        response: { 200: envelope(z.object({ chatCount: z.number() })) },
      },
    },
    async (req) => ok(await agents.addCounts(requireUser(req), req.body.agentId)),
  );

  app.get(
    "/api/remote/agent/schema/release/:id",
    {
      schema: {
        tags,
        summary: "The released agent as the chat page uses it (no persona or secrets)",
        params: idParams,
        response: { 200: envelope(agentPublic) },
      },
    },
    async (req) => ok(await agents.releaseSchema(req.caller, req.params.id)),
  );
};

/** Doc 2 §7 agent drafts, under /aiagent_api. */
export const agentDraftRoutes: FastifyPluginAsyncZod<Opts> = async (app, { agents }) => {
  app.post(
    "/agent/quick/add",
    {
      schema: {
        tags,
        summary: "Create an agent (Unreleased) and open it in the studio",
        body: quickAddRequest,
        response: { 200: envelope(copyResponse) },
      },
    },
    async (req) => ok(await agents.quickAdd(requireUser(req), req.body)),
  );

  app.get(
    "/agent/draft/:id",
    { schema: { tags, summary: "The studio draft of my agent", params: idParams, response: { 200: envelope(draftResponse) } } },
    async (req) => ok(await agents.getDraft(requireUser(req), req.params.id)),
  );

  app.put(
    "/agent/draft/:id",
    {
      schema: {
        tags,
        summary: "Save the draft (the first save after a release counts as one edit for billing)",
        params: idParams,
        body: agentDraft,
        response: { 200: envelope(draftResponse) },
      },
    },
    async (req) => ok(await agents.saveDraft(requireUser(req), req.params.id, req.body)),
  );

  app.post(
    "/agent/release/:id",
    {
      schema: {
        tags,
        summary: "Release the draft as a new immutable version (after a successful debug)",
        params: idParams,
        body: releaseRequest,
        response: { 200: envelope(z.object({ versionNo: z.number() })) },
      },
    },
    async (req) => ok(await agents.release(requireUser(req), req.params.id, req.body.notes)),
  );

  app.get(
    "/agent/versions/:id",
    { schema: { tags, summary: "Version history of my agent", params: idParams, response: { 200: envelope(z.array(versionSummary)) } } },
    async (req) => ok(await agents.versions(requireUser(req), req.params.id)),
  );

  app.get(
    "/agent/version/:id/:versionNo",
    {
      schema: {
        tags,
        summary: "One released version of my agent, in full",
        params: idParams.extend({ versionNo: z.coerce.number().int().min(1) }),
        response: { 200: envelope(versionDetail) },
      },
    },
    async (req) => ok(await agents.version(requireUser(req), req.params.id, req.params.versionNo)),
  );
};

/** Doc 1 §7 runtime use counts, under /agent/agent_runtime. */
export const agentRuntimeCountRoutes: FastifyPluginAsyncZod<Opts> = async (app, { agents }) => {
  app.post(
    "/schema_use_count_by_schema_ids",
    {
      schema: {
        tags,
        summary: "Task counts of the given agents",
        body: useCountByIdsRequest,
        response: { 200: envelope(z.array(useCountRow)) },
      },
    },
    async (req) => ok(await agents.useCounts(req.caller, req.body.schema_ids)),
  );
  app.get(
    "/schema_use_count",
    { schema: { tags, summary: "Task counts of every agent the caller sees", response: { 200: envelope(z.array(useCountRow)) } } },
    async (req) => ok(await agents.allUseCounts(req.caller)),
  );
};
