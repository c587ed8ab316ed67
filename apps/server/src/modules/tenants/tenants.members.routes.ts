import {
  envelope,
  tenantMember,
  tenantMemberInput,
  tenantMemberPage,
  tenantMemberPageRequest,
  tenantMemberUpdate,
} from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok } from "../../platform/http.ts";
import type { TenantMembersService } from "./tenants.members.service.ts";

const tags = ["tenant members"];

/** A tenant's administrators: the members of their own tenant (/agent_api/api/tenant/members, beyond the spec). */
export const tenantMembersRoutes: FastifyPluginAsyncZod<{ members: TenantMembersService }> = async (app, { members }) => {
  const base = "/api/tenant/members";

  app.get(
    base,
    {
      schema: {
        tags,
        summary: "Members of the caller's tenant, newest first (tenant administrators)",
        querystring: tenantMemberPageRequest,
        response: { 200: envelope(tenantMemberPage) },
      },
    },
    async (req) => ok(await members.list(req.caller, req.query)),
  );
  app.post(
    base,
    {
      schema: {
        tags,
        summary: "Add a member with a first password (the tenant need not take sign-ups)",
        body: tenantMemberInput,
        response: { 200: envelope(tenantMember) },
      },
    },
    async (req) => ok(await members.create(req.caller, req.body)),
  );
  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: "Change a member's role, stop or restart the account, or set a new password (signs them out)",
        params: z.object({ id: z.string().min(1).max(64) }),
        body: tenantMemberUpdate,
        response: { 200: envelope(tenantMember) },
      },
    },
    async (req) => ok(await members.update(req.caller, req.params.id, req.body)),
  );
};
