import {
  agentIdRequest,
  benefitResult,
  buyMembersRequest,
  cancelOrderRequest,
  copyCost,
  createOrderRequest,
  durationConfig,
  editRecordRequest,
  envelope,
  feeResult,
  order,
  orderCreated,
  orderListRequest,
  orderPage,
  orderStatus,
  payChannel,
  planCategory,
  planTemplate,
  rechargeByAmountRequest,
  rechargeOption,
  sandboxDecision,
  sandboxPayInfo,
  transferForm,
  useCodeRequest,
  useEditNum,
  walletLogPage,
  walletLogRequest,
  WALLET_LOG_TYPES,
} from "@agentfair/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { badRequest, notFound } from "../../platform/errors.ts";
import { ok } from "../../platform/http.ts";
import { requestLanguage, translate } from "../../platform/messages.ts";
import { cents, yuan } from "./billing.repository.ts";
import type { BillingService } from "./billing.service.ts";
import { orderWire } from "./orders.service.ts";
import { exempt } from "./quotas.ts";
import { membershipGateApplies } from "@agentfair/contracts";

const tags = ["billing"];
const idParam = z.object({ id: z.string().min(1).max(64) });
const done = envelope(z.null());

/** PUBLIC_URL, or the origin the request came in on: the base of the sandbox pay page. */
const originOf = (billing: BillingService, req: FastifyRequest) =>
  billing.platform.config.PUBLIC_URL.replace(/\/$/, "") || `${req.protocol}://${req.host}`;

/** The idempotency key: header `Idempotency-Key` or body `idempotencyKey`. */
const idemKey = (req: FastifyRequest, body?: { idempotencyKey?: string }) => {
  const h = req.headers["idempotency-key"];
  const v = (Array.isArray(h) ? h[0] : h) ?? body?.idempotencyKey;
  return v ? String(v).trim().slice(0, 64) || undefined : undefined;
};

export const billingRoutes: FastifyPluginAsyncZod<{ billing: BillingService }> = async (app, { billing }) => {
  const { orders } = billing;

  // ---- catalogue ---------------------------------------------------------------------------
  app.get(
    "/api/order/templates",
    { schema: { tags, summary: "Every plan template (personal and team) on offer", response: { 200: envelope(z.array(planTemplate)) } } },
    async (req) => ok(await billing.plans(requestLanguage(req.headers))),
  );
  app.get(
    "/api/order/weixin/memberTemplates",
    {
      schema: {
        tags,
        summary: "Plan templates of one category",
        querystring: z.object({ category: planCategory.default("PERSONAL") }),
        response: { 200: envelope(z.array(planTemplate)) },
      },
    },
    async (req) => ok(await billing.plans(requestLanguage(req.headers), req.query.category)),
  );
  app.post(
    "/api/monthConfig/getList",
    { schema: { tags, summary: "Duration configs (months and price discount)", response: { 200: envelope(z.array(durationConfig)) } } },
    async () => ok(await billing.durations()),
  );
  app.get(
    "/api/order/recharge/templates",
    { schema: { tags, summary: "Top-up amounts on offer", response: { 200: envelope(z.array(rechargeOption)) } } },
    async () => ok(await billing.rechargeOptions()),
  );

  // ---- membership orders -------------------------------------------------------------------
  app.post(
    "/api/order/:id/create",
    {
      schema: {
        tags,
        summary: "Create a membership order for a plan template (price computed on the server)",
        params: idParam,
        body: createOrderRequest.optional(),
        response: { 200: envelope(orderCreated) },
      },
    },
    async (req) => {
      const caller = requireUser(req);
      const body = req.body ?? {};
      return ok(
        await orders.createMembership(caller, req.params.id, { ...body, idempotencyKey: idemKey(req, body) }, originOf(billing, req)),
      );
    },
  );
  app.post(
    "/api/order/buyMembers",
    {
      schema: {
        tags,
        summary: "Buy membership (team purchases carry groupName / groupId)",
        body: buyMembersRequest,
        response: { 200: envelope(orderCreated) },
      },
    },
    async (req) => {
      const caller = requireUser(req);
      const { orderTemplateId, ...body } = req.body;
      return ok(
        await orders.createMembership(caller, orderTemplateId, { ...body, idempotencyKey: idemKey(req, body) }, originOf(billing, req)),
      );
    },
  );

  // ---- top-ups -----------------------------------------------------------------------------
  const assertMayRecharge = (req: FastifyRequest) => {
    const caller = requireUser(req);
    const gated = membershipGateApplies({
      isAdmin: caller.isAdmin,
      isWhite: caller.isWhite || exempt(caller),
      tenantId: caller.tenantIsDefault ? null : caller.tenantId,
      userMemberLevel: { memberLevel: caller.memberLevel },
    });
    if (gated) throw badRequest("rechargeMembersOnly");
    return caller;
  };
  app.post(
    "/api/order/recharge/:id/create",
    {
      schema: {
        tags,
        summary: "Top-up order by top-up template id (paid members)",
        params: idParam,
        body: z.object({ idempotencyKey: z.string().max(64).optional() }).optional(),
        response: { 200: envelope(orderCreated) },
      },
    },
    async (req) => {
      const caller = assertMayRecharge(req);
      const option = await billing.catalog.rechargeOption(req.params.id);
      if (!option?.enabled) throw badRequest("rechargeOptionNotFound");
      return ok(await orders.createRecharge(caller, option.amountCents, idemKey(req, req.body), originOf(billing, req)));
    },
  );
  app.post(
    "/api/order/recharge/amount",
    {
      schema: {
        tags,
        summary: "Top-up order by amount in yuan (paid members)",
        body: rechargeByAmountRequest,
        response: { 200: envelope(orderCreated) },
      },
    },
    async (req) => {
      const caller = assertMayRecharge(req);
      return ok(await orders.createRecharge(caller, cents(req.body.amount), idemKey(req, req.body), originOf(billing, req)));
    },
  );

  // ---- order lookups and changes -----------------------------------------------------------
  app.get(
    "/api/order/:id/status",
    {
      schema: { tags, summary: "Order status (polled every 3 s)", params: idParam, response: { 200: envelope(z.object({ orderStatus })) } },
    },
    async (req) => ok({ orderStatus: (await orders.owned(requireUser(req), req.params.id)).status as z.infer<typeof orderStatus> }),
  );
  app.get(
    "/api/order/payDetail/:orderNo",
    {
      schema: {
        tags,
        summary: "Pay detail by orderNo",
        params: z.object({ orderNo: z.string().min(1).max(64) }),
        response: { 200: envelope(order.extend({ subject: z.string() })) },
      },
    },
    async (req) => {
      const row = await orders.owned(requireUser(req), req.params.orderNo);
      const title = await orders.titleOf(row, requestLanguage(req.headers));
      return ok({ ...orderWire(row, undefined, title), subject: title });
    },
  );
  app.post(
    "/api/order/orderList",
    {
      schema: {
        tags,
        summary: "The caller's orders (100 a page, page 0 first)",
        body: orderListRequest.optional(),
        response: { 200: envelope(orderPage) },
      },
    },
    async (req) => {
      const body = orderListRequest.parse(req.body ?? {});
      return ok(await orders.list(requireUser(req), body, requestLanguage(req.headers)));
    },
  );
  app.post(
    "/api/order/rePayOrder/:id",
    { schema: { tags, summary: "Pay a pending order again", params: idParam, response: { 200: envelope(orderCreated) } } },
    async (req) => ok(await orders.rePay(requireUser(req), req.params.id, originOf(billing, req))),
  );
  app.post(
    "/api/order/cancelOrder",
    {
      schema: {
        tags,
        summary: "Cancel a pending order (orderId or orderNo)",
        body: cancelOrderRequest,
        response: { 200: envelope(order) },
      },
    },
    async (req) => {
      const ref = req.body.orderId ?? req.body.orderNo;
      if (!ref) throw badRequest("orderNotPending");
      return ok(await orders.cancel(requireUser(req), ref));
    },
  );

  // ---- payment: notifications and the sandbox pay page ------------------------------------
  await app.register(async (plain) => {
    const raw = plain.withTypeProvider<ZodTypeProvider>();
    // Signatures cover the exact bytes: keep the raw body.
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser("*", { parseAs: "string", bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    raw.post(
      "/api/order/notify/:channel",
      {
        schema: {
          tags,
          summary: "Payment notification from the provider (signature verified; settlement is idempotent)",
          params: z.object({ channel: payChannel }),
          security: [],
        },
      },
      async (req, reply) => {
        const outcome = await orders.notify(req.params.channel, req.headers, typeof req.body === "string" ? req.body : "");
        if (req.params.channel === "wechatpay") return reply.status(204).send();
        return ok({ outcome });
      },
    );
  });

  app.get(
    "/api/order/sandbox/:orderNo",
    {
      schema: {
        tags,
        summary: "Sandbox pay page: the order behind a scanned QR",
        params: z.object({ orderNo: z.string().min(1).max(64) }),
        querystring: z.object({ t: z.string().min(1).max(200) }),
        security: [],
        response: { 200: envelope(sandboxPayInfo) },
      },
    },
    async (req) => {
      const row = await orders.byOrderNo(req.params.orderNo);
      if (row?.payChannel !== "sandbox" || !billing.sandbox.checkScanToken(row.orderNo, req.query.t)) throw notFound();
      return ok({
        orderNo: row.orderNo,
        subject: await orders.titleOf(row, requestLanguage(req.headers)),
        orderAmount: yuan(row.amountCents),
        orderStatus: row.status as z.infer<typeof orderStatus>,
      });
    },
  );
  app.post(
    "/api/order/sandbox/:orderNo",
    {
      schema: {
        tags,
        summary: "Sandbox pay page: the payer confirms (a signed notification settles) or declines (the order is cancelled)",
        params: z.object({ orderNo: z.string().min(1).max(64) }),
        body: sandboxDecision,
        security: [],
        response: { 200: envelope(sandboxPayInfo) },
      },
    },
    async (req) => {
      const row = await orders.byOrderNo(req.params.orderNo);
      if (row?.payChannel !== "sandbox" || !billing.sandbox.checkScanToken(row.orderNo, req.body.t)) throw notFound();
      if (row.status !== "PENDING") throw badRequest("orderNotPending");
      if (req.body.decision === "confirm") {
        const n = billing.sandbox.signedNotification({ orderNo: row.orderNo, amountCents: row.amountCents });
        await orders.notify("sandbox", n.headers, n.body);
      } else {
        await orders.cancelRow(row);
      }
      const after = (await orders.byOrderNo(row.orderNo)) ?? row;
      return ok({
        orderNo: after.orderNo,
        subject: await orders.titleOf(after, requestLanguage(req.headers)),
        orderAmount: yuan(after.amountCents),
        orderStatus: after.status as z.infer<typeof orderStatus>,
      });
    },
  );

  // ---- wallet ------------------------------------------------------------------------------
  app.post(
    "/api/userWalletLog/page/:type",
    {
      schema: {
        tags,
        summary: "Wallet log (USE: consumption only) with usage charts between startDate and endDate (Asia/Shanghai days)",
        params: z.object({ type: z.enum(WALLET_LOG_TYPES) }),
        body: walletLogRequest.optional(),
        response: { 200: envelope(walletLogPage) },
      },
    },
    async (req) =>
      ok(await billing.walletLog(requireUser(req), req.params.type, walletLogRequest.parse(req.body ?? {}), requestLanguage(req.headers))),
  );

  // ---- benefit codes -----------------------------------------------------------------------
  app.post(
    "/api/benefit/useCode",
    {
      schema: {
        tags,
        summary: "Redeem a benefit code (exactly once)",
        body: useCodeRequest.optional(),
        response: { 200: envelope(benefitResult) },
      },
    },
    async (req) => ok(await billing.benefits.redeem(requireUser(req), req.body?.benefitCode)),
  );

  // ---- fees and quotas ---------------------------------------------------------------------
  app.get(
    "/api/agentDeductFeeConfig/getUseEditNum",
    {
      schema: { tags, summary: "Edits used this month (useNum) and the free allowance (editNum)", response: { 200: envelope(useEditNum) } },
    },
    async (req) => ok(await billing.quotas.useEditNum(requireUser(req))),
  );
  app.post(
    "/api/usersEditAgent/saveInfo",
    {
      schema: {
        tags,
        summary: "Record a studio edit; past the allowance the template's fee is charged",
        body: editRecordRequest,
        response: { 200: envelope(feeResult) },
      },
    },
    async (req) => ok(await billing.quotas.recordEdit(requireUser(req), req.body)),
  );
  app.post(
    "/api/agentDeductFeeConfig/copyCostFee",
    {
      schema: {
        tags,
        summary: "What copying this agent costs (priced agents: the template's fee)",
        body: agentIdRequest,
        response: { 200: envelope(copyCost) },
      },
    },
    async (req) => {
      const caller = requireUser(req);
      const agent = await billing.agentForFee(caller, req.body.agentId);
      const fee = await billing.quotas.copyFee(caller, agent.priceCents);
      return ok({ fee: yuan(fee), priced: agent.priceCents > 0, balance: await billing.balance(caller.userId) });
    },
  );
  app.post(
    "/api/agentDeductFeeConfig/addAgentDecutFeeInfo",
    { schema: { tags, summary: "Charge the copy fee of a priced agent", body: agentIdRequest, response: { 200: envelope(copyCost) } } },
    async (req) => {
      const caller = requireUser(req);
      const agent = await billing.agentForFee(caller, req.body.agentId);
      const fee = await billing.quotas.chargeCopy(caller, agent);
      return ok({ fee: yuan(fee), priced: agent.priceCents > 0, balance: await billing.balance(caller.userId) });
    },
  );

  // ---- offline bank transfer ---------------------------------------------------------------
  app.post(
    "/api/order/transfer",
    {
      schema: {
        tags,
        summary: "Offline bank transfer form (multipart: companyName, contacts, img png/jpg)",
        consumes: ["multipart/form-data"],
        response: { 200: done },
      },
    },
    async (req) => {
      const caller = requireUser(req);
      if (!billing.platform.config.BANK_TRANSFER) throw badRequest("transferDisabled");
      if (!req.isMultipart()) throw badRequest("transferFieldsRequired");
      const fields: Record<string, string> = {};
      let image: Buffer | null = null;
      let mime = "";
      for await (const part of req.parts()) {
        if (part.type === "file") {
          if (part.fieldname !== "img") {
            part.file.resume();
            continue;
          }
          mime = part.mimetype;
          image = await part.toBuffer();
        } else fields[part.fieldname] = String(part.value ?? "");
      }
      const form = transferForm.safeParse(fields);
      if (!form.success || !image || image.length === 0) throw badRequest("transferFieldsRequired");
      if (mime !== "image/png" && mime !== "image/jpeg") throw badRequest("transferImageType");
      await billing.submitTransfer(caller, { ...form.data, mime, image });
      return ok(null, translate("transferSubmitted", requestLanguage(req.headers)));
    },
  );
};
