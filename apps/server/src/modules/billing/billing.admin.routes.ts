import {
  benefitBatch,
  benefitBatchInput,
  benefitCodeRow,
  durationConfig,
  durationConfigInput,
  envelope,
  order,
  orderListRequest,
  orderPage,
  planCategory,
  adminPlanTemplate,
  planTemplateInput,
  rechargeOption,
  rechargeOptionInput,
  transferRequest,
} from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAdmin } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import { requestLanguage } from "../../platform/messages.ts";
import type { BillingService } from "./billing.service.ts";

const tags = ["billing admin"];
const idParam = z.object({ id: z.string().min(1).max(64) });
const done = envelope(z.null());

/** Administrator screens: plans, durations, top-up options, benefit-code batches, orders. */
export const billingAdminRoutes: FastifyPluginAsyncZod<{ billing: BillingService }> = async (app, { billing }) => {
  const base = "/api/admin/billing";

  app.get(
    `${base}/plans`,
    {
      schema: {
        tags,
        summary: "All plan templates",
        querystring: z.object({ category: planCategory.optional() }),
        response: { 200: envelope(z.array(adminPlanTemplate)) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.adminPlans(req.query.category));
    },
  );
  app.post(
    `${base}/plans`,
    { schema: { tags, summary: "Add a plan template", body: planTemplateInput, response: { 200: envelope(adminPlanTemplate) } } },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.savePlan(null, req.body));
    },
  );
  app.put(
    `${base}/plans/:id`,
    {
      schema: {
        tags,
        summary: "Change a plan template",
        params: idParam,
        body: planTemplateInput,
        response: { 200: envelope(adminPlanTemplate) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.savePlan(req.params.id, req.body));
    },
  );
  app.delete(
    `${base}/plans/:id`,
    { schema: { tags, summary: "Remove a plan template", params: idParam, response: { 200: done } } },
    async (req) => {
      requireAdmin(req);
      await billing.deletePlan(req.params.id);
      return ok(null);
    },
  );

  app.get(
    `${base}/durations`,
    { schema: { tags, summary: "All duration configs", response: { 200: envelope(z.array(durationConfig)) } } },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.durations(true));
    },
  );
  app.post(
    `${base}/durations`,
    { schema: { tags, summary: "Add a duration config", body: durationConfigInput, response: { 200: envelope(durationConfig) } } },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.saveDuration(null, req.body));
    },
  );
  app.put(
    `${base}/durations/:id`,
    {
      schema: {
        tags,
        summary: "Change a duration config",
        params: idParam,
        body: durationConfigInput,
        response: { 200: envelope(durationConfig) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.saveDuration(req.params.id, req.body));
    },
  );
  app.delete(
    `${base}/durations/:id`,
    { schema: { tags, summary: "Remove a duration config", params: idParam, response: { 200: done } } },
    async (req) => {
      requireAdmin(req);
      await billing.deleteDuration(req.params.id);
      return ok(null);
    },
  );

  app.get(
    `${base}/recharge`,
    { schema: { tags, summary: "All top-up options", response: { 200: envelope(z.array(rechargeOption)) } } },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.rechargeOptions(true));
    },
  );
  app.post(
    `${base}/recharge`,
    { schema: { tags, summary: "Add a top-up option", body: rechargeOptionInput, response: { 200: envelope(rechargeOption) } } },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.saveRechargeOption(null, req.body));
    },
  );
  app.put(
    `${base}/recharge/:id`,
    {
      schema: {
        tags,
        summary: "Change a top-up option",
        params: idParam,
        body: rechargeOptionInput,
        response: { 200: envelope(rechargeOption) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.saveRechargeOption(req.params.id, req.body));
    },
  );
  app.delete(
    `${base}/recharge/:id`,
    { schema: { tags, summary: "Remove a top-up option", params: idParam, response: { 200: done } } },
    async (req) => {
      requireAdmin(req);
      await billing.deleteRechargeOption(req.params.id);
      return ok(null);
    },
  );

  app.get(
    `${base}/benefit-batches`,
    { schema: { tags, summary: "Benefit-code batches", response: { 200: envelope(z.array(benefitBatch)) } } },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.benefits.batches());
    },
  );
  app.post(
    `${base}/benefit-batches`,
    {
      schema: {
        tags,
        summary: "Generate a batch of benefit codes (a level for N days, or an amount)",
        body: benefitBatchInput,
        response: { 200: envelope(z.object({ batch: benefitBatch, codes: z.array(z.string()) })) },
      },
    },
    async (req) => ok(await billing.benefits.createBatch(requireAdmin(req), req.body)),
  );
  app.get(
    `${base}/benefit-batches/:id/codes`,
    {
      schema: {
        tags,
        summary: "The codes of a batch and who redeemed them",
        params: idParam,
        response: { 200: envelope(z.array(benefitCodeRow)) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.benefits.codes(req.params.id));
    },
  );

  app.post(
    `${base}/orders`,
    { schema: { tags, summary: "Every user's orders", body: orderListRequest.optional(), response: { 200: envelope(orderPage) } } },
    async (req) => {
      const caller = requireAdmin(req);
      return ok(await billing.orders.list(caller, { ...orderListRequest.parse(req.body ?? {}), all: true }, requestLanguage(req.headers)));
    },
  );
  for (const [action, to] of [
    ["refund", "REFUNDED"],
    ["freeze", "FROZEN"],
    ["release", "PAID"],
  ] as const) {
    app.post(
      `${base}/orders/:id/${action}`,
      { schema: { tags, summary: `Order ${action} (→ ${to})`, params: idParam, response: { 200: envelope(order) } } },
      async (req) => {
        requireAdmin(req);
        return ok(await billing.orders.adminTransition(req.params.id, to));
      },
    );
  }
  app.post(
    `${base}/reconcile`,
    { schema: { tags, summary: "Run the payment reconciliation now", response: { 200: done } } },
    async (req) => {
      requireAdmin(req);
      await billing.orders.reconcile();
      return ok(null);
    },
  );

  app.get(
    `${base}/transfers`,
    { schema: { tags, summary: "Offline bank transfer forms", response: { 200: envelope(z.array(transferRequest)) } } },
    async (req) => {
      requireAdmin(req);
      return ok(await billing.transfers());
    },
  );
  app.get(
    `${base}/transfers/:id/img`,
    { schema: { tags, summary: "Receipt image of a transfer form", params: idParam } },
    async (req, reply) => {
      requireAdmin(req);
      const { type, image } = await billing.transferImage(req.params.id);
      return reply.type(type).header("cache-control", "private, no-store").send(image);
    },
  );
};
