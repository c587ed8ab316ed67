import { design, designBindRequest, designInput, designPage, designPageQuery, envelope } from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import { requestLanguage, translate } from "../../platform/messages.ts";
import type { DesignerService } from "./designer.service.ts";

const tags = ["designer"];
const idParams = z.object({ id: z.string().min(1).max(64) });

/** Saved designs under /aiagent_api/designer (beyond the spec: it shows no designer calls). */
export const designerRoutes: FastifyPluginAsyncZod<{ designer: DesignerService }> = async (app, { designer }) => {
  app.get(
    "/designer/page",
    {
      schema: {
        tags,
        summary: "The caller's designs, newest change first",
        querystring: designPageQuery,
        response: { 200: envelope(designPage) },
      },
    },
    async (req) => ok(await designer.page(requireUser(req), req.query)),
  );
  app.post(
    "/designer",
    { schema: { tags, summary: "Create a design", body: designInput, response: { 200: envelope(design) } } },
    async (req) => ok(await designer.create(requireUser(req), req.body), translate("designSaved", requestLanguage(req.headers))),
  );
  app.get(
    "/designer/:id",
    { schema: { tags, summary: "One of the caller's designs", params: idParams, response: { 200: envelope(design) } } },
    async (req) => ok(await designer.get(requireUser(req), req.params.id)),
  );
  app.put(
    "/designer/:id",
    {
      schema: {
        tags,
        summary: "Save a design (name, widgets, sample result)",
        params: idParams,
        body: designInput,
        response: { 200: envelope(design) },
      },
    },
    async (req) =>
      ok(await designer.update(requireUser(req), req.params.id, req.body), translate("designSaved", requestLanguage(req.headers))),
  );
  app.put(
    "/designer/:id/plugins",
    {
      schema: {
        tags,
        summary: "Bind the caller's tools to the design: their results show it inside chat replies",
        params: idParams,
        body: designBindRequest,
        response: { 200: envelope(design) },
      },
    },
    async (req) =>
      ok(await designer.bind(requireUser(req), req.params.id, req.body.pluginIds), translate("designSaved", requestLanguage(req.headers))),
  );
  app.delete(
    "/designer/:id",
    { schema: { tags, summary: "Delete a design", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await designer.remove(requireUser(req), req.params.id);
      return ok(null, translate("designDeleted", requestLanguage(req.headers)));
    },
  );
};
