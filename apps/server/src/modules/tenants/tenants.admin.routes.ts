import {
  adminTenant,
  envelope,
  tenantBrandingInput,
  tenantCreateInput,
  tenantRegistrationInput,
  tenantRoleInput,
} from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAdmin } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import type { TenantsAdminService } from "./tenants.admin.service.ts";

const tags = ["tenants admin"];

/** Platform administrators: tenants and their administrators (/agent_api/api/admin/tenants). */
export const tenantsAdminRoutes: FastifyPluginAsyncZod<{ tenantsAdmin: TenantsAdminService }> = async (app, { tenantsAdmin }) => {
  const base = "/api/admin/tenants";

  app.get(
    base,
    {
      schema: {
        tags,
        summary: "Tenants (not the default one) with their administrators",
        response: { 200: envelope(z.array(adminTenant)) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return ok(await tenantsAdmin.list());
    },
  );
  app.post(
    base,
    {
      schema: {
        tags,
        summary: "Create a tenant with its branding, and its first administrator when given (beyond the spec)",
        body: tenantCreateInput,
        response: { 200: envelope(adminTenant) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return ok(await tenantsAdmin.create(req.body));
    },
  );
  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        summary: "Change a tenant's branding: name, logo, colours, filing number (beyond the spec)",
        params: z.object({ id: z.string().min(1).max(64) }),
        body: tenantBrandingInput,
        response: { 200: envelope(adminTenant) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return ok(await tenantsAdmin.setBranding(req.params.id, req.body));
    },
  );
  app.put(
    `${base}/:id/registration`,
    {
      schema: {
        tags,
        summary: "Open or close a tenant's sign-ups (register, and a code login of a new contact) (beyond the spec)",
        params: z.object({ id: z.string().min(1).max(64) }),
        body: tenantRegistrationInput,
        response: { 200: envelope(adminTenant) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return ok(await tenantsAdmin.setRegistration(req.params.id, req.body.open));
    },
  );
  app.put(
    `${base}/:id/role`,
    {
      schema: {
        tags,
        summary: "Grant (admin) or revoke (member) a tenant user's administrator role, by username",
        params: z.object({ id: z.string().min(1).max(64) }),
        body: tenantRoleInput,
        response: { 200: envelope(adminTenant) },
      },
    },
    async (req) => {
      requireAdmin(req);
      return ok(await tenantsAdmin.setRole(req.params.id, req.body));
    },
  );
};
