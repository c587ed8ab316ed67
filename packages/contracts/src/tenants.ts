import { z } from "zod";
import { contact, newPassword, newUsername } from "./auth.ts";
import { pageOf } from "./common.ts";

/** A user's role in their tenant. Only users of a non-default tenant can be its administrators. */
export const tenantRoles = ["member", "admin"] as const;
export const tenantRole = z.enum(tenantRoles);
export type TenantRole = z.infer<typeof tenantRole>;

export const tenantAdminUser = z.object({
  userId: z.string(),
  username: z.string(),
  nickname: z.string(),
  /** Stopped by another of the tenant's administrators. */
  disabled: z.boolean(),
});
export type TenantAdminUser = z.infer<typeof tenantAdminUser>;

/**
 * The first path segments of the web app's own pages. The route base is the first segment when it
 * names a tenant (/acme/login), so a tenant's domain is never one of these.
 */
export const APP_PATH_SEGMENTS = [
  "login",
  "register",
  "forget",
  "qr-confirm",
  "index",
  "home",
  "insight",
  "rpa",
  "recharge",
  "studio",
  "user-order",
  "agent-execute",
  "agent-detail",
  "insight-detail",
  "insight-report",
  "knowledge-list",
  "share-page",
  "pay",
  "admin",
  "tenant",
  "models",
  "designer",
  "cards",
  "rules",
  "datatables",
  "tasks",
  "chat-robots",
  "robots",
  "mcp-access",
] as const;
/** ...nor one of the server's own (API prefixes, docs, health, static files). */
const SERVER_PATH_SEGMENTS = [
  "agent",
  "prod-api",
  "api",
  "docs",
  "healthz",
  "readyz",
  "metrics",
  "assets",
  "mcp",
  "tenant-logos",
  "billing",
  "default",
  // what a broken link to /${domain} would open
  "null",
  "undefined",
];
const RESERVED_DOMAINS = new Set<string>([APP_PATH_SEGMENTS, SERVER_PATH_SEGMENTS].flat());

/** A tenant's domain: its login page is /{domain}/login. Lowercase letters, digits and hyphens, from a letter. */
export const tenantDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9-]{1,31}$/, "tenantDomainInvalid")
  .refine((d) => !RESERVED_DOMAINS.has(d), "tenantDomainReserved");

const color = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "colorInvalid");

/** What a tenant's login page shows (the spec's tenant info). */
const tenantName = z.string().trim().min(1).max(40);
/** An icon uploaded to this site, or one of the web's own tenant logos: never another site's image. */
const tenantLogo = z
  .string()
  .trim()
  .max(300)
  .regex(/^(\/agent_api\/api\/files\/data\/[A-Za-z0-9-]+|\/tenant-logos\/[A-Za-z0-9_-]+\.(svg|png|jpe?g|gif))?$/, "tenantLogoInvalid");
const recordFiling = z.string().trim().max(100);
const branding = { name: tenantName, logo: tenantLogo, primaryColor: color, backgroundColor: color, recordFiling };

/** A change of a tenant's branding: the fields given change, the others stay. */
export const tenantBrandingInput = z
  .object(branding)
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), "nothing to change");
export type TenantBrandingInput = z.infer<typeof tenantBrandingInput>;

/** A new tenant (platform administrators), optionally with its first administrator's account. */
export const tenantCreateInput = z.object({
  domain: tenantDomain,
  name: tenantName,
  logo: tenantLogo.default(""),
  primaryColor: color.default("#1677ff"),
  backgroundColor: color.default("#f0f5ff"),
  recordFiling: recordFiling.default(""),
  openRegistration: z.boolean().default(false),
  admin: z.object({ username: newUsername, password: newPassword }).optional(),
});
export type TenantCreateInput = z.input<typeof tenantCreateInput>;

/** A tenant as platform administrators see it: its branding and who administers it. */
export const adminTenant = z.object({
  id: z.string(),
  domain: z.string(),
  name: z.string(),
  logo: z.string(),
  primaryColor: z.string(),
  backgroundColor: z.string(),
  recordFiling: z.string(),
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
  username: newUsername,
  nickname: z.string().trim().max(32).optional(),
  contact: contact.optional().or(z.literal("").transform(() => undefined)),
  password: newPassword,
  role: tenantRole.default("member"),
});
export type TenantMemberInput = z.input<typeof tenantMemberInput>;

/** One change of a member: the role, stopped or not, or a new password (which signs them out everywhere). */
export const tenantMemberUpdate = z
  .object({
    role: tenantRole.optional(),
    disabled: z.boolean().optional(),
    password: newPassword.optional(),
  })
  .refine((v) => v.role !== undefined || v.disabled !== undefined || v.password !== undefined, { message: "nothing to change" });
export type TenantMemberUpdate = z.infer<typeof tenantMemberUpdate>;
