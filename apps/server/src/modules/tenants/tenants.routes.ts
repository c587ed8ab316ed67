import { envelope, tenantInfo } from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ok } from "../../platform/http.ts";
import { TenantsService } from "./tenants.service.ts";

export const tenantsRoutes: FastifyPluginAsyncZod<{ tenants: TenantsService }> = async (app, { tenants }) => {
  app.get(
    "/api/auth/reg/getTenantInfo",
    {
      schema: {
        tags: ["auth"],
        summary: "Tenant branding by domain (empty: the default tenant)",
        querystring: z.object({ domain: z.string().max(64).optional() }),
        response: { 200: envelope(tenantInfo) },
      },
    },
    async (req) => ok(TenantsService.info(await tenants.byDomain(req.query.domain))),
  );
};
