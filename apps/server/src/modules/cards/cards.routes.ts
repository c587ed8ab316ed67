import { cardBinding, cardBindingInput, cardTemplate, cardTemplateInput, envelope } from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import { requestLanguage, translate } from "../../platform/messages.ts";
import type { CardsService } from "./cards.service.ts";

const tags = ["cards"];
const idParams = z.object({ id: z.string().min(1).max(64) });
const pluginParams = z.object({ pluginId: z.string().min(1).max(64) });

/** Card templates and their binding to plugins, under /aiagent_api/cards (beyond the spec: its paths are not shown). */
export const cardsRoutes: FastifyPluginAsyncZod<{ cards: CardsService }> = async (app, { cards }) => {
  app.get(
    "/cards",
    { schema: { tags, summary: "The caller's card templates, newest first", response: { 200: envelope(z.array(cardTemplate)) } } },
    async (req) => ok(await cards.list(requireUser(req))),
  );
  app.post(
    "/cards",
    {
      schema: {
        tags,
        summary: "Create a card template (type, list flag, data path, field → value path options, sample result)",
        body: cardTemplateInput,
        response: { 200: envelope(cardTemplate) },
      },
    },
    async (req) => ok(await cards.create(requireUser(req), req.body), translate("cardCreated", requestLanguage(req.headers))),
  );
  app.get(
    "/cards/:id",
    { schema: { tags, summary: "A card template", params: idParams, response: { 200: envelope(cardTemplate) } } },
    async (req) => ok(await cards.get(requireUser(req), req.params.id)),
  );
  app.put(
    "/cards/:id",
    {
      schema: {
        tags,
        summary: "Update a card template",
        params: idParams,
        body: cardTemplateInput,
        response: { 200: envelope(cardTemplate) },
      },
    },
    async (req) => ok(await cards.update(requireUser(req), req.params.id, req.body), translate("cardSaved", requestLanguage(req.headers))),
  );
  app.delete(
    "/cards/:id",
    {
      schema: {
        tags,
        summary: "Delete a card template (its plugin bindings go with it)",
        params: idParams,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await cards.remove(requireUser(req), req.params.id);
      return ok(null, translate("cardDeleted", requestLanguage(req.headers)));
    },
  );
  app.get(
    "/cards/binding/:pluginId",
    {
      schema: {
        tags,
        summary: "The card bound to a plugin (cardId null: none)",
        params: pluginParams,
        response: { 200: envelope(cardBinding) },
      },
    },
    async (req) => ok(await cards.binding(requireUser(req), req.params.pluginId)),
  );
  app.put(
    "/cards/binding/:pluginId",
    {
      schema: {
        tags,
        summary: "Bind one of the caller's cards to their plugin (cardId null unbinds): the tool's results then come back as that card",
        params: pluginParams,
        body: cardBindingInput,
        response: { 200: envelope(cardBinding) },
      },
    },
    async (req) => ok(await cards.bind(requireUser(req), req.params.pluginId, req.body.cardId)),
  );
};
