import { createHash, createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import {
  CAPTCHA_TTL_SECONDS,
  CHECK_CODE_MAX_TRIES,
  CHECK_CODE_TTL_SECONDS,
  QR_TICKET_TTL_SECONDS,
  TOKEN_TTL_SECONDS,
  isEmail,
  type Language,
} from "@agentfair/contracts";
import { and, desc, eq, gt, gte, isNull, lt, ne, or, sql } from "drizzle-orm";
import QRCode from "qrcode";
import svgCaptcha from "svg-captcha";
import type { Platform } from "../../platform/platform.ts";
import { authSessions, captchas, checkCodes, outbox, qrTickets, ROBOT_GUEST_PASSWORD_HASH, tenants, users } from "../../db/schema/index.ts";
import { hashToken, newToken, reservedUsernames, type Caller } from "../../platform/auth.ts";
import { AppError, badRequest, notFound, tooMany } from "../../platform/errors.ts";
import { translate } from "../../platform/messages.ts";
import { DUMMY_HASH, hashPassword, verifyPassword } from "../../platform/passwords.ts";
import type { Tenant, TenantsService } from "../tenants/tenants.service.ts";

type Purpose = "register" | "login" | "reset";

const LIMITS = {
  // Every attempt counts towards a generous per-IP ceiling (offices share one IP); failures
  // count towards a tight one, and 5 failures lock the account for the window.
  loginPerIp: { limit: 300, window: 10 * 60 },
  loginFailuresPerIp: { limit: 20, window: 10 * 60 },
  loginFailuresPerAccount: { limit: 5, window: 15 * 60 },
  codeSendPerContact: { limit: 1, window: 60 },
  codeSendPerContactDaily: { limit: 10, window: 24 * 60 * 60 },
  codeSendPerIp: { limit: 20, window: 60 * 60 },
  codeVerifyPerIp: { limit: 30, window: 10 * 60 },
  qrPerIp: { limit: 30, window: 10 * 60 },
  captchaPerIp: { limit: 100, window: 10 * 60 },
};

export class AuthService {
  constructor(
    private readonly platform: Platform,
    private readonly tenants: TenantsService,
  ) {}

  private get db() {
    return this.platform.db;
  }
  private get limiter() {
    return this.platform.rateLimiter;
  }
  private get captchaEnabled() {
    return this.platform.config.CAPTCHA === "on";
  }
  private secretHash(value: string) {
    return createHash("sha256").update(`${this.platform.secret}:${value}`).digest("hex");
  }

  // ---- captcha ----

  async captcha(ip: string) {
    if (!this.captchaEnabled) return { captchaEnabled: false, uuid: "", img: "" };
    await this.limiter.take(`captcha:ip:${ip}`, LIMITS.captchaPerIp.limit, LIMITS.captchaPerIp.window);
    const challenge = svgCaptcha.create({ size: 4, noise: 3, ignoreChars: "0o1ilI", color: true, background: "#f4f6fa" });
    const [row] = await this.db
      .insert(captchas)
      .values({
        answerHash: this.secretHash(challenge.text.toLowerCase()),
        expiresAt: new Date(Date.now() + CAPTCHA_TTL_SECONDS * 1000),
      })
      .returning({ id: captchas.id });
    const img = `data:image/svg+xml;base64,${Buffer.from(challenge.data).toString("base64")}`;
    return { captchaEnabled: true, uuid: row.id, img };
  }

  /** Single use: the row is deleted by the first check, right or wrong. */
  private async checkCaptcha(code: string | undefined, uuid: string | undefined) {
    if (!this.captchaEnabled) return;
    if (!code || !uuid) throw badRequest("captchaRequired");
    const [row] = await this.db.delete(captchas).where(eq(captchas.id, uuid)).returning();
    if (!row || row.expiresAt < new Date()) throw badRequest("captchaExpired");
    if (row.answerHash !== this.secretHash(code.trim().toLowerCase())) throw badRequest("captchaWrong");
  }

  // ---- sessions ----

  /** Every sign-in ends here: a stopped account (disabled by its tenant's administrator) gets no session. */
  async issueTokens(userId: string) {
    const [signedIn] = await this.db
      .update(users)
      .set({ lastLoginAt: new Date(), loginCount: sql`${users.loginCount} + 1` })
      .where(and(eq(users.id, userId), isNull(users.disabledAt)))
      .returning({ id: users.id });
    if (!signedIn) throw badRequest("accountDisabled");
    const token = newToken();
    const reportToken = newToken();
    const pairId = randomUUID();
    const expiresAt = new Date(Date.now() + TOKEN_TTL_SECONDS * 1000);
    await this.db.insert(authSessions).values([
      { tokenHash: hashToken(token), userId, kind: "web", pairId, expiresAt },
      { tokenHash: hashToken(reportToken), userId, kind: "report", pairId, expiresAt },
    ]);
    return { token, reportToken };
  }

  async logout(caller: Caller) {
    await this.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(authSessions.pairId, caller.sessionPairId), isNull(authSessions.revokedAt)));
    await this.platform.invalidate("user", caller.userId);
  }

  /** Ends every session of a user (a new password, a stopped account); cached callers go with them. */
  async revokeAll(userId: string) {
    await this.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
    await this.platform.invalidate("user", userId);
  }

  // ---- password login ----

  async login(input: { username: string; password: string; code?: string; uuid?: string; domain?: string }, ip: string) {
    await this.limiter.take(`login:ip:${ip}`, LIMITS.loginPerIp.limit, LIMITS.loginPerIp.window);
    // Every try is claimed as a failure before anything is checked, so parallel guesses cannot
    // all slip under the limits; a right password gives its claims back.
    const ipFailure = await this.limiter.take(`login:fail:ip:${ip}`, LIMITS.loginFailuresPerIp.limit, LIMITS.loginFailuresPerIp.window);
    await this.checkCaptcha(input.code, input.uuid);
    const tenant = await this.tenants.byDomain(input.domain);
    const user = await this.findByLogin(tenant, input.username);
    // An account of another tenant with this username: a right password then says where to sign in.
    const elsewhere = user ? undefined : await this.findElsewhere(tenant, input.username);
    const account = user ?? elsewhere?.user;
    // The lock is per account, whichever identifier (username, e-mail, phone) or sign-in page the guesses use.
    const { limit, window } = LIMITS.loginFailuresPerAccount;
    const accountFailure = await this.limiter.take(
      `login:acct:${account ? account.id : `${tenant.id}:${input.username.toLowerCase()}`}`,
      limit,
      window,
      (s) => new AppError("accountLocked", 429, { minutes: Math.ceil(s / 60) }),
    );
    // One hash checked whichever account it is, so the time taken tells nothing about which exist.
    const valid = await verifyPassword(input.password, account?.passwordHash ?? DUMMY_HASH);
    if (!account || !valid) throw badRequest("loginFailed");
    await Promise.all([ipFailure.release(), accountFailure.release()]);
    if (elsewhere) {
      const home = elsewhere.tenant;
      throw badRequest("loginElsewhere", { name: home.name, path: home.isDefault ? "/login" : `/${home.domain}/login` });
    }
    return this.issueTokens(account.id);
  }

  /**
   * The account of another tenant that a username names, when exactly one active account does
   * (a name used in several tenants gives no hint: which one was meant cannot be told).
   */
  private async findElsewhere(tenant: Tenant, username: string) {
    const rows = await this.db
      .select({ user: users, tenant: tenants })
      .from(users)
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      // Robot guests are nobody's sign-in (and their hash is checked without scrypt: a faster answer).
      .where(
        and(
          eq(users.username, username),
          ne(users.tenantId, tenant.id),
          isNull(users.disabledAt),
          ne(users.passwordHash, ROBOT_GUEST_PASSWORD_HASH),
        ),
      )
      .limit(2);
    return rows.length === 1 ? rows[0] : undefined;
  }

  private async findByLogin(tenant: Tenant, login: string) {
    const rows = await this.db
      .select()
      .from(users)
      .where(
        and(eq(users.tenantId, tenant.id), or(eq(users.username, login), eq(users.email, login.toLowerCase()), eq(users.phone, login))),
      )
      .limit(1);
    return rows[0];
  }

  private async findByContact(tenantId: string, contact: string) {
    const column = isEmail(contact) ? users.email : users.phone;
    const rows = await this.db
      .select()
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(column, normaliseContact(contact))))
      .limit(1);
    return rows[0];
  }

  // ---- check codes ----

  async sendCheckCode(input: { contact: string; purpose: Purpose; domain?: string }, ip: string, lang: Language) {
    const contact = normaliseContact(input.contact);
    const tenant = await this.tenants.byDomain(input.domain);
    await this.limiter.take(`code:ip:${ip}`, LIMITS.codeSendPerIp.limit, LIMITS.codeSendPerIp.window);
    // One code a minute per contact, counted from the last code sent (the web's resend countdown).
    const [last] = await this.db
      .select({ createdAt: checkCodes.createdAt })
      .from(checkCodes)
      .where(and(eq(checkCodes.tenantId, tenant.id), eq(checkCodes.contact, contact)))
      .orderBy(desc(checkCodes.createdAt))
      .limit(1);
    const wait = last ? Math.ceil((last.createdAt.getTime() + LIMITS.codeSendPerContact.window * 1000 - Date.now()) / 1000) : 0;
    if (wait > 0) throw tooMany(wait);
    const key = `code:contact:${tenant.id}:${contact}`;
    await this.limiter.take(key, LIMITS.codeSendPerContact.limit, LIMITS.codeSendPerContact.window);
    await this.limiter.take(`${key}:day`, LIMITS.codeSendPerContactDaily.limit, LIMITS.codeSendPerContactDaily.window);
    const existing = await this.findByContact(tenant.id, contact);
    if (input.purpose === "register") requireOpen(tenant);
    if (input.purpose === "register" && existing) throw badRequest("contactTaken");
    // A reset for an unknown contact answers the same as a real one and sends nothing.
    if (input.purpose === "reset" && !existing) return;
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const id = randomUUID();
    await this.db.insert(checkCodes).values({
      id,
      tenantId: tenant.id,
      contact,
      purpose: input.purpose,
      codeHash: this.secretHash(`${id}:${code}`),
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + CHECK_CODE_TTL_SECONDS * 1000),
    });
    const minutes = CHECK_CODE_TTL_SECONDS / 60;
    await this.platform.mailer.send(contact, translate("checkCodeSubject", lang), translate("checkCodeBody", lang, { code, minutes }));
  }

  /** Single use; a wrong try counts and the 5th wrong try burns the code. */
  private async consumeCheckCode(tenantId: string, contactRaw: string, purpose: Purpose, code: string, ip: string) {
    await this.limiter.take(`code:verify:${ip}`, LIMITS.codeVerifyPerIp.limit, LIMITS.codeVerifyPerIp.window);
    const contact = normaliseContact(contactRaw);
    const [row] = await this.db
      .select()
      .from(checkCodes)
      .where(
        and(
          eq(checkCodes.tenantId, tenantId),
          eq(checkCodes.contact, contact),
          eq(checkCodes.purpose, purpose),
          isNull(checkCodes.usedAt),
          gt(checkCodes.expiresAt, new Date()),
        ),
      )
      .orderBy(desc(checkCodes.createdAt))
      .limit(1);
    if (!row) throw badRequest("checkCodeExpired");
    // A try is claimed before the code is compared, so parallel guesses get no more than the
    // allowed number of looks at it; a right code gives its try back.
    const claimed = await this.db
      .update(checkCodes)
      .set({ wrongTries: sql`${checkCodes.wrongTries} + 1` })
      .where(and(eq(checkCodes.id, row.id), isNull(checkCodes.usedAt), lt(checkCodes.wrongTries, CHECK_CODE_MAX_TRIES)))
      .returning({ id: checkCodes.id });
    if (claimed.length === 0) throw badRequest("checkCodeExpired");
    if (row.codeHash !== this.secretHash(`${row.id}:${code.trim()}`)) {
      await this.db
        .update(checkCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(checkCodes.id, row.id), isNull(checkCodes.usedAt), gte(checkCodes.wrongTries, CHECK_CODE_MAX_TRIES)));
      throw badRequest("checkCodeWrong");
    }
    const used = await this.db
      .update(checkCodes)
      .set({ usedAt: new Date(), wrongTries: sql`${checkCodes.wrongTries} - 1` })
      .where(and(eq(checkCodes.id, row.id), isNull(checkCodes.usedAt)))
      .returning({ id: checkCodes.id });
    if (used.length === 0) throw badRequest("checkCodeExpired");
    return contact;
  }

  async register(input: { username: string; password: string; contact: string; checkCode: string; domain?: string }, ip: string) {
    const tenant = await this.tenants.byDomain(input.domain);
    requireOpen(tenant);
    const taken = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, tenant.id), eq(users.username, input.username)))
      .limit(1);
    if (taken[0]) throw new AppError("usernameTaken", 409);
    // The special users' names (administrators, exempt, home) are never open to registration, in
    // any tenant, even before their accounts exist: a namesake would read as the special user.
    if (reservedUsernames(this.platform.config).includes(input.username)) throw new AppError("usernameTaken", 409);
    if (await this.findByContact(tenant.id, input.contact)) throw new AppError("contactTaken", 409);
    const contact = await this.consumeCheckCode(tenant.id, input.contact, "register", input.checkCode, ip);
    const passwordHash = await hashPassword(input.password);
    const [user] = await this.db
      .insert(users)
      .values({
        tenantId: tenant.id,
        username: input.username,
        nickname: input.username,
        passwordHash,
        ...(isEmail(contact) ? { email: contact } : { phone: contact }),
      })
      .onConflictDoNothing()
      .returning();
    if (!user) throw new AppError("usernameTaken", 409);
    return this.issueTokens(user.id);
  }

  /** Sign in with a code; a new contact gets an account (the usual code-login convention). */
  async codeLogin(input: { contact: string; checkCode: string; domain?: string }, ip: string) {
    const tenant = await this.tenants.byDomain(input.domain);
    const contact = await this.consumeCheckCode(tenant.id, input.contact, "login", input.checkCode, ip);
    let user = await this.findByContact(tenant.id, contact);
    if (!user) {
      requireOpen(tenant);
      const base =
        contact
          .replace(/@.*/, "")
          .replace(/[^A-Za-z0-9_]/g, "")
          .slice(0, 20) || "user";
      const [created] = await this.db
        .insert(users)
        .values({
          tenantId: tenant.id,
          username: `${base}_${randomInt(1000, 9999)}`,
          nickname: base,
          passwordHash: await hashPassword(newToken()),
          ...(isEmail(contact) ? { email: contact } : { phone: contact }),
        })
        .returning();
      user = created;
    }
    return this.issueTokens(user.id);
  }

  async resetPassword(input: { contact: string; checkCode: string; password: string; domain?: string }, ip: string) {
    const tenant = await this.tenants.byDomain(input.domain);
    const contact = await this.consumeCheckCode(tenant.id, input.contact, "reset", input.checkCode, ip);
    const user = await this.findByContact(tenant.id, contact);
    if (!user) throw badRequest("checkCodeExpired");
    // A stopped account's password is its administrator's to set.
    if (user.disabledAt) throw badRequest("accountDisabled");
    await this.db
      .update(users)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(users.id, user.id));
    await this.revokeAll(user.id);
  }

  // ---- QR login ----

  async createQrTicket(domain: string | undefined, origin: string, ip: string) {
    await this.limiter.take(`qr:ip:${ip}`, LIMITS.qrPerIp.limit, LIMITS.qrPerIp.window);
    const tenant = await this.tenants.byDomain(domain);
    const expiresAt = new Date(Date.now() + QR_TICKET_TTL_SECONDS * 1000);
    const [ticket] = await this.db.insert(qrTickets).values({ tenantId: tenant.id, expiresAt }).returning();
    const base = tenant.isDefault ? "" : `/${tenant.domain}`;
    const url = `${origin}${base}/qr-confirm?id=${ticket.id}`;
    const img = await QRCode.toDataURL(url, { margin: 1, width: 240 });
    return { id: ticket.id, key: this.qrKey(ticket.id), url, img, expiresAt: expiresAt.toISOString() };
  }

  private qrKey(id: string) {
    return createHmac("sha256", this.platform.secret).update(`qr:${id}`).digest("base64url");
  }

  async confirmQrTicket(id: string, caller: Caller) {
    const confirmed = await this.db
      .update(qrTickets)
      .set({ status: "CONFIRMED", userId: caller.userId })
      .where(
        and(
          eq(qrTickets.id, id),
          eq(qrTickets.tenantId, caller.tenantId),
          eq(qrTickets.status, "WAITING"),
          gt(qrTickets.expiresAt, new Date()),
        ),
      )
      .returning({ id: qrTickets.id });
    if (confirmed.length > 0) return;
    const [ticket] = await this.db.select({ tenantId: qrTickets.tenantId }).from(qrTickets).where(eq(qrTickets.id, id));
    throw badRequest(ticket && ticket.tenantId !== caller.tenantId ? "qrOtherTenant" : "qrExpired");
  }

  /** The waiting page polls this; a confirmed ticket hands over one session, once. */
  async qrStatus(id: string, key: string) {
    const expected = Buffer.from(this.qrKey(id));
    const given = Buffer.from(key);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound();
    const [ticket] = await this.db.select().from(qrTickets).where(eq(qrTickets.id, id)).limit(1);
    if (!ticket) throw notFound();
    if (ticket.consumedAt || ticket.expiresAt < new Date()) return { status: "EXPIRED" as const };
    if (ticket.status !== "CONFIRMED" || !ticket.userId) return { status: "WAITING" as const };
    const consumed = await this.db
      .update(qrTickets)
      .set({ consumedAt: new Date() })
      .where(and(eq(qrTickets.id, id), isNull(qrTickets.consumedAt)))
      .returning({ userId: qrTickets.userId });
    if (!consumed[0]?.userId) return { status: "EXPIRED" as const };
    return { status: "CONFIRMED" as const, ...(await this.issueTokens(consumed[0].userId)) };
  }

  /** At start: the administrator accounts (ADMIN_USERNAMES) that do not exist yet, with ADMIN_PASSWORD. */
  async ensureAdmins() {
    const { ADMIN_USERNAMES, ADMIN_PASSWORD } = this.platform.config;
    if (!ADMIN_PASSWORD) return [];
    const tenant = await this.tenants.byDomain(undefined);
    const created: string[] = [];
    for (const username of ADMIN_USERNAMES) {
      const [row] = await this.db
        .insert(users)
        .values({ tenantId: tenant.id, username, nickname: username, passwordHash: await hashPassword(ADMIN_PASSWORD) })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (row) created.push(username);
    }
    return created;
  }

  // ---- housekeeping (a pg-boss schedule) ----

  async purgeExpired(now = new Date()) {
    await this.db.delete(authSessions).where(or(lt(authSessions.expiresAt, now), lt(authSessions.revokedAt, now)));
    await this.db.delete(captchas).where(lt(captchas.expiresAt, now));
    await this.db.delete(checkCodes).where(lt(checkCodes.expiresAt, now));
    await this.db.delete(qrTickets).where(lt(qrTickets.expiresAt, now));
    // Outbox mail holds codes that expired long ago: an administrator needs only the last week.
    await this.db.delete(outbox).where(lt(outbox.createdAt, new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000)));
    await this.limiter.purge(new Date(now.getTime() - 2 * 24 * 60 * 60 * 1000));
  }
}

export function normaliseContact(contact: string) {
  const c = contact.trim();
  return isEmail(c) ? c.toLowerCase() : c;
}

/** A tenant's own accounts are made only where it takes sign-ups (its users pass the membership gate). */
function requireOpen(tenant: { isDefault: boolean; openRegistration: boolean }) {
  if (!tenant.isDefault && !tenant.openRegistration) throw badRequest("registrationClosed");
}
