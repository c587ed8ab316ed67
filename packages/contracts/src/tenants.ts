import { z } from "zod";
import { contact, registerRequest } from "./auth.ts";
import { pageOf } from "./common.ts";

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

/** Members a tenant's administrator sees on one page of /tenant/members. */
export const TENANT_MEMBER_PAGE_SIZE = 20;

/** A user of the caller's tenant, as its administrator manages them (beyond the spec). */
export const tenantMember = z.object({
  id: z.string(),
  username: z.string(),
  nickname: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: tenantRole,
  /** Stopped by an administrator: cannot sign in; sessions, keys and tasks stop. */
  disabled: z.boolean(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TenantMember = z.infer<typeof tenantMember>;
export const tenantMemberPage = pageOf(tenantMember);

export const tenantMemberPageRequest = z.object({
  pageNo: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(TENANT_MEMBER_PAGE_SIZE),
  /** Part of a username, nickname, e-mail or phone. */
  keyword: z.string().trim().max(64).optional(),
});

/**
 * A new member, made by the tenant's administrator (the tenant need not take sign-ups): a username
 * (the rules of registration), a first password the administrator passes on, and optionally an
 * e-mail or phone for code sign-in and password resets.
 */
export const tenantMemberInput = z.object({
  username: registerRequest.shape.username,
  nickname: z.string().trim().max(32).optional(),
  contact: contact.optional().or(z.literal("").transform(() => undefined)),
  password: registerRequest.shape.password,
  role: tenantRole.default("member"),
});
export type TenantMemberInput = z.input<typeof tenantMemberInput>;

/** One change of a member: the role, stopped or not, or a new password (which signs them out everywhere). */
export const tenantMemberUpdate = z
  .object({
    role: tenantRole.optional(),
    disabled: z.boolean().optional(),
    password: registerRequest.shape.password.optional(),
  })
  .refine((v) => v.role !== undefined || v.disabled !== undefined || v.password !== undefined, { message: "nothing to change" });
export type TenantMemberUpdate = z.infer<typeof tenantMemberUpdate>;
