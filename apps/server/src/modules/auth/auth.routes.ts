import {
  REPORT_TOKEN_COOKIE,
  TOKEN_COOKIE,
  TOKEN_TTL_SECONDS,
  captchaResponse,
  emailPhoneLoginRequest,
  envelope,
  loginRequest,
  qrStatus,
  qrTicket,
  registerRequest,
  resetPasswordRequest,
  sendCheckCodeRequest,
  tokenResponse,
} from "@agentfair/contracts";
import { desc } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { outbox } from "../../db/schema/index.ts";
import { requireAdmin, requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import { requestLanguage, translate } from "../../platform/messages.ts";
import type { Platform } from "../../platform/platform.ts";
import type { AuthService } from "./auth.service.ts";

const tags = ["auth"];

function setTokenCookies(reply: FastifyReply, tokens: { token: string; reportToken: string }) {
  // Readable by the web client, which sends the token as a bearer header (doc 1 §4).
  const options = { path: "/", maxAge: TOKEN_TTL_SECONDS, sameSite: "lax" as const, httpOnly: false };
  reply.setCookie(TOKEN_COOKIE, tokens.token, options);
  reply.setCookie(REPORT_TOKEN_COOKIE, tokens.reportToken, options);
}

export function publicOrigin(platform: Platform, req: FastifyRequest) {
  return platform.config.PUBLIC_URL.replace(/\/$/, "") || `${req.protocol}://${req.host}`;
}

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService; platform: Platform }> = async (app, { auth, platform }) => {
  const msg = (req: FastifyRequest, key: Parameters<typeof translate>[0]) => translate(key, requestLanguage(req.headers));

  app.get(
    "/api/loginImage/captchaImage",
    { schema: { tags, summary: "Image captcha (single use, expires in 2 minutes)", response: { 200: envelope(captchaResponse) } } },
    async (req) => ok(await auth.captcha(req.ip)),
  );

  app.post(
    "/api/auth/login",
    {
      schema: {
        tags,
        summary: "Sign in with username, email or phone and password",
        body: loginRequest,
        response: { 200: envelope(tokenResponse) },
      },
    },
    async (req, reply) => {
      const tokens = await auth.login(req.body, req.ip);
      setTokenCookies(reply, tokens);
      return ok(tokens);
    },
  );

  app.post(
    "/api/auth/logout",
    { schema: { tags, summary: "Revoke the current session (both tokens)", response: { 200: envelope(z.null()) } } },
    async (req, reply) => {
      await auth.logout(requireUser(req));
      reply.clearCookie(TOKEN_COOKIE, { path: "/" });
      reply.clearCookie(REPORT_TOKEN_COOKIE, { path: "/" });
      return ok(null);
    },
  );

  app.post(
    "/api/auth/reg/send-check-code",
    {
      schema: {
        tags,
        summary: "Send a check code by email (or to the outbox)",
        body: sendCheckCodeRequest,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await auth.sendCheckCode(req.body, req.ip, requestLanguage(req.headers));
      return ok(null, msg(req, "checkCodeSent"));
    },
  );

  app.post(
    "/api/auth/reg",
    { schema: { tags, summary: "Register with a check code", body: registerRequest, response: { 200: envelope(tokenResponse) } } },
    async (req, reply) => {
      const tokens = await auth.register(req.body, req.ip);
      setTokenCookies(reply, tokens);
      return ok(tokens, msg(req, "registered"));
    },
  );

  app.post(
    "/api/auth/reg/emailPhoneLogin",
    {
      schema: {
        tags,
        summary: "Sign in with an email or phone check code",
        body: emailPhoneLoginRequest,
        response: { 200: envelope(tokenResponse) },
      },
    },
    async (req, reply) => {
      const tokens = await auth.codeLogin(req.body, req.ip);
      setTokenCookies(reply, tokens);
      return ok(tokens);
    },
  );

  app.post(
    "/api/auth/reg/resetPassword",
    {
      schema: {
        tags,
        summary: "Forget password: reset with a check code",
        body: resetPasswordRequest,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await auth.resetPassword(req.body, req.ip);
      return ok(null, msg(req, "passwordReset"));
    },
  );

  app.get(
    "/api/appletLogin/qrcode",
    {
      schema: {
        tags,
        summary: "A one-time QR login ticket (expires in 5 minutes)",
        querystring: z.object({ domain: z.string().max(64).optional() }),
        response: { 200: envelope(qrTicket) },
      },
    },
    async (req) => ok(await auth.createQrTicket(req.query.domain, publicOrigin(platform, req), req.ip)),
  );

  app.get(
    "/api/appletLogin/qrcode/status/:id",
    {
      schema: {
        tags,
        summary: "Poll a QR ticket with its key; hands over the session once",
        params: z.object({ id: z.uuid() }),
        querystring: z.object({ key: z.string().min(1).max(128) }),
        response: { 200: envelope(qrStatus) },
      },
    },
    async (req, reply) => {
      const status = await auth.qrStatus(req.params.id, req.query.key);
      if (status.status === "CONFIRMED" && "token" in status) setTokenCookies(reply, status);
      return ok(status);
    },
  );

  app.post(
    "/api/appletLogin/qrcode/:id/confirm",
    {
      schema: {
        tags,
        summary: "A signed-in user confirms a QR ticket",
        params: z.object({ id: z.uuid() }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await auth.confirmQrTicket(req.params.id, requireUser(req));
      return ok(null, msg(req, "qrConfirmed"));
    },
  );

  app.get(
    "/api/admin/outbox",
    {
      schema: {
        tags: ["admin"],
        summary: "Mail written to the outbox when no SMTP_URL is set (administrators)",
        response: {
          200: envelope(
            z.array(z.object({ id: z.string(), recipient: z.string(), subject: z.string(), body: z.string(), createdAt: z.string() })),
          ),
        },
      },
    },
    async (req) => {
      requireAdmin(req);
      const rows = await platform.db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(100);
      return ok(rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })));
    },
  );
};
