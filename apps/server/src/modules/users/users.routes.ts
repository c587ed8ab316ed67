import { envelope, firstLoginDoneRequest, firstLoginResponse, memberLevel, planCategory, userInfo } from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import type { UsersService } from "./users.service.ts";

const tags = ["users"];

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  app.get(
    "/api/userinfo/findUserInfo",
    { schema: { tags, summary: "The signed-in user's info", response: { 200: envelope(userInfo) } } },
    async (req) => ok(await users.userInfo(requireUser(req))),
  );

  app.get(
    "/api/userinfo/findUserMemberInfo",
    {
      schema: {
        tags,
        summary: "Member level and validity",
        response: { 200: envelope(z.object({ memberLevel, endDate: z.string().nullable(), accountBalance: z.number() })) },
      },
    },
    async (req) => {
      const info = await users.userInfo(requireUser(req));
      return ok({ ...info.userMemberLevel, accountBalance: info.userInfo.accountBalance });
    },
  );

  app.get(
    "/api/userinfo/findUseFeeData",
    {
      schema: {
        tags,
        summary: "The fee template of the caller's member level",
        response: { 200: envelope(z.object({ agentDeductFeeTemplates: z.object({ category: planCategory, fees: z.number() }) })) },
      },
    },
    async (req) => {
      const info = await users.userInfo(requireUser(req));
      return ok({ agentDeductFeeTemplates: info.agentDeductFeeTemplates });
    },
  );

  app.get(
    "/api/userinfo/findIsFirstLogin",
    {
      schema: {
        tags,
        summary: "Whether this is the user's first sign-in (shows the usage-intent survey)",
        querystring: z.object({ tenantId: z.string().max(64).optional() }),
        response: { 200: envelope(firstLoginResponse) },
      },
    },
    async (req) => ok({ isFirstLogin: await users.isFirstLogin(requireUser(req)) }),
  );

  app.post(
    "/api/userinfo/firstLoginDone",
    {
      schema: {
        tags,
        summary: "Ends the first login: the usage-intent survey was answered or skipped (its answers are not sent)",
        body: firstLoginDoneRequest,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await users.firstLoginDone(requireUser(req), req.body.survey);
      return ok(null);
    },
  );
};
