import { envelope, modelInfo, modelInput, modelOption, modelOptionsQuery, modelTestResult } from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import { requestLanguage } from "../../platform/messages.ts";
import type { ModelsService } from "./models.service.ts";

const tags = ["models"];
const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Model management: /agent_api/api/models. Platform administrators manage every model; a tenant
 * administrator manages its own tenant's models only (see ModelsService.scopeOf).
 */
export const modelsRoutes: FastifyPluginAsyncZod<{ models: ModelsService }> = async (app, { models }) => {
  app.get(
    "/api/models",
    {
      schema: {
        tags,
        summary: "List the models the caller manages (API keys are never returned)",
        response: { 200: envelope(z.array(modelInfo)) },
      },
    },
    async (req) => ok(await models.list(requireUser(req))),
  );
  app.get(
    "/api/models/options",
    {
      schema: {
        tags,
        summary:
          "Enabled chat models to choose for an agent, or with type=EMBEDDING the embedding models for a knowledge base, with type=RERANK the rerank models for retrieval settings (any signed-in user; names only)",
        querystring: modelOptionsQuery,
        response: { 200: envelope(z.array(modelOption)) },
      },
    },
    async (req) => ok(await models.options(requireUser(req), req.query.type)),
  );
  app.post(
    "/api/models",
    { schema: { tags, summary: "Add a model", body: modelInput, response: { 200: envelope(modelInfo) } } },
    async (req) => ok(await models.create(requireUser(req), req.body)),
  );
  app.put(
    "/api/models/:id",
    {
      schema: {
        tags,
        summary: "Edit a model; an empty apiKey keeps the stored one",
        params: idParams,
        body: modelInput,
        response: { 200: envelope(modelInfo) },
      },
    },
    async (req) => ok(await models.update(requireUser(req), req.params.id, req.body)),
  );
  app.delete(
    "/api/models/:id",
    { schema: { tags, summary: "Delete a model", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await models.remove(requireUser(req), req.params.id);
      return ok(null);
    },
  );
  app.post(
    "/api/models/:id/test",
    { schema: { tags, summary: "Test the connection with one tiny call", params: idParams, response: { 200: envelope(modelTestResult) } } },
    async (req) => ok(await models.test(requireUser(req), req.params.id, requestLanguage(req.headers))),
  );
};
