import { z } from "zod";

export const MEMBER_LEVELS = ["FREE", "MONTHLY", "PER_FLAGSHIP_MONTHLY", "ENT_ADVANCED_MONTHLY", "ENT_FLAGSHIP_MONTHLY"] as const;
export const memberLevel = z.enum(MEMBER_LEVELS);
export type MemberLevel = z.infer<typeof memberLevel>;

export const PLAN_CATEGORIES = ["PERSONAL", "ENTERPRISE"] as const;
export const planCategory = z.enum(PLAN_CATEGORIES);
export type PlanCategory = z.infer<typeof planCategory>;

/** Token cookie lifetime: 1 day (doc 1 §9). */
export const TOKEN_TTL_SECONDS = 24 * 60 * 60;
export const TOKEN_COOKIE = "Admin-Token";
export const REPORT_TOKEN_COOKIE = "Report-Token";
/** Check codes expire in 10 minutes; the 5th wrong try burns a code. */
export const CHECK_CODE_TTL_SECONDS = 10 * 60;
export const CHECK_CODE_MAX_TRIES = 5;
export const CAPTCHA_TTL_SECONDS = 2 * 60;
export const QR_TICKET_TTL_SECONDS = 5 * 60;

const username = z.string().trim().min(1).max(64);
const password = z.string().min(1).max(128);

export const loginRequest = z.object({
  username,
  password,
  code: z.string().trim().max(16).optional(),
  uuid: z.string().max(64).optional(),
  domain: z.string().trim().max(64).optional(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const tokenResponse = z.object({ token: z.string(), reportToken: z.string() });
export type TokenResponse = z.infer<typeof tokenResponse>;

export const captchaResponse = z.object({
  captchaEnabled: z.boolean(),
  uuid: z.string(),
  img: z.string(),
});

export const contact = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .refine((v) => isEmail(v) || isPhone(v), { message: "contactInvalid" });

export function isEmail(v: string) {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v);
}
export function isPhone(v: string) {
  return /^1\d{10}$/.test(v);
}

export const CHECK_CODE_PURPOSES = ["register", "login", "reset"] as const;
export const sendCheckCodeRequest = z.object({
  contact,
  purpose: z.enum(CHECK_CODE_PURPOSES).default("register"),
  domain: z.string().trim().max(64).optional(),
});

export const PASSWORD_MIN = 8;
/** A new account's username and password (registration, members added by an administrator). */
export const newUsername = z
  .string()
  .trim()
  .min(2)
  .max(32)
  .regex(/^[A-Za-z0-9_\u4e00-\u9fa5]+$/);
export const newPassword = z.string().min(PASSWORD_MIN).max(128);
export const registerRequest = z.object({
  username: newUsername,
  password: newPassword,
  contact,
  checkCode: z.string().trim().min(4).max(8),
  domain: z.string().trim().max(64).optional(),
});

export const emailPhoneLoginRequest = z.object({
  contact,
  checkCode: z.string().trim().min(4).max(8),
  domain: z.string().trim().max(64).optional(),
});

export const resetPasswordRequest = z.object({
  contact,
  checkCode: z.string().trim().min(4).max(8),
  password: newPassword,
  domain: z.string().trim().max(64).optional(),
});

export const QR_STATUSES = ["WAITING", "CONFIRMED", "EXPIRED"] as const;
/**
 * `key` stays on the waiting page: polling the status needs it, and the QR (which anyone near the
 * screen can read) holds only the id, so only the page that asked can pick up the session.
 */
export const qrTicket = z.object({ id: z.string(), key: z.string(), url: z.string(), img: z.string(), expiresAt: z.string() });
export const qrStatus = z.object({ status: z.enum(QR_STATUSES), token: z.string().optional(), reportToken: z.string().optional() });

export const tenantInfo = z.object({
  tenantId: z.string().nullable(),
  domain: z.string(),
  name: z.string(),
  logo: z.string(),
  primaryColor: z.string(),
  backgroundColor: z.string(),
  recordFiling: z.string(),
  /** Whether people may create their own accounts here (beyond the spec): the login page offers sign-up only then. */
  openRegistration: z.boolean(),
});
export type TenantInfo = z.infer<typeof tenantInfo>;

export const userInfo = z.object({
  userId: z.string(),
  tenantId: z.string().nullable(),
  tenantDomain: z.string(),
  username: z.string(),
  nickname: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  isWhite: z.boolean(),
  isAdmin: z.boolean(),
  /** The special user who lands on /home after sign-in (others land on /index). */
  isHome: z.boolean(),
  /** Administrator of the caller's own (non-default) tenant: manages that tenant's models. */
  isTenantAdmin: z.boolean(),
  userMemberLevel: z.object({ memberLevel: memberLevel, endDate: z.string().nullable() }),
  userInfo: z.object({ accountBalance: z.number() }),
  groups: z.array(z.object({ id: z.string(), groupName: z.string() })),
  agentDeductFeeTemplates: z.object({ category: planCategory, fees: z.number() }),
});
export type UserInfo = z.infer<typeof userInfo>;

export const firstLoginResponse = z.object({ isFirstLogin: z.boolean() });

/**
 * The end of the first login (beyond the spec): the client says the usage-intent survey was
 * answered or explicitly skipped, never its answers (submit sends them nowhere, doc 1 §5).
 * Until then, findIsFirstLogin stays true and every sign-in shows the survey.
 */
export const surveyOutcome = z.enum(["answered", "skipped"]);
export type SurveyOutcome = z.infer<typeof surveyOutcome>;
export const firstLoginDoneRequest = z.object({ survey: surveyOutcome });

/** Usage-intent survey (doc 1 §5). */
export const SURVEY_IDENTITIES = [1, 2] as const;
export const SURVEY_GOAL_COUNT = 11;

/**
 * The membership gate (doc 1 §5, doc 2 §6), shared by the server and the web:
 * a non-admin user of the public platform (no tenantId) with level FREE and no white flag
 * must open membership first.
 */
export function membershipGateApplies(user: {
  isAdmin: boolean;
  isWhite: boolean;
  tenantId: string | null;
  userMemberLevel: { memberLevel: MemberLevel | null };
}) {
  if (user.isAdmin || user.isWhite || user.tenantId) return false;
  const level = user.userMemberLevel.memberLevel;
  return !level || level === "FREE";
}

/** The benefit-code button is offered to these levels only (doc 1 §6). */
export const BENEFIT_CODE_LEVELS: readonly MemberLevel[] = ["FREE", "MONTHLY", "PER_FLAGSHIP_MONTHLY"];
