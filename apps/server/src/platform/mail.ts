import nodemailer from "nodemailer";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { outbox } from "../db/schema/index.ts";

export interface Mailer {
  send(to: string, subject: string, body: string): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set. Otherwise mail goes to the server log and the outbox table,
 * which administrators read; it is never returned to the caller.
 */
export function createMailer(config: Config, db: Db, log: FastifyBaseLogger): Mailer {
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(to, subject, body) {
        await transport.sendMail({ from: config.SMTP_FROM, to, subject, text: body });
      },
    };
  }
  return {
    async send(to, subject, body) {
      await db.insert(outbox).values({ recipient: to, subject, body });
      log.info({ to, subject, body }, "mail written to the outbox (no SMTP_URL)");
    },
  };
}
