import { z } from "zod";

/** A user's role in their tenant. Only users of a non-default tenant can be its administrators. */
export const tenantRoles = ["member", "admin"] as const;
export const tenantRole = z.enum(tenantRoles);
export type TenantRole = z.infer<typeof tenantRole>;

export const tenantAdminUser = z.object({ userId: z.string(), username: z.string(), nickname: z.string() });
export type TenantAdminUser = z.infer<typeof tenantAdminUser>;

/** A tenant as platform administrators see it: who administers it. */
export const adminTenant = z.object({
  id: z.string(),
  domain: z.string(),
  name: z.string(),
  userCount: z.number().int(),
  admins: z.array(tenantAdminUser),
  /** People may create their own accounts in it (beyond the spec; off unless opened). */
  openRegistration: z.boolean(),
});
export type AdminTenant = z.infer<typeof adminTenant>;

/** Open or close a tenant's sign-ups (beyond the spec). */
export const tenantRegistrationInput = z.object({ open: z.boolean() });

/** Grant (role admin) or revoke (role member) a tenant user's administrator role, by username. */
export const tenantRoleInput = z.object({
  username: z.string().trim().min(1).max(64),
  role: tenantRole,
});
export type TenantRoleInput = z.infer<typeof tenantRoleInput>;
