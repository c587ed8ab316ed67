import { isEmail } from "@agentfair/contracts";
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
  const toOutbox = async (to: string, subject: string, body: string, why: string) => {
    await db.insert(outbox).values({ recipient: to, subject, body });
    log.info({ to, subject, body }, `mail written to the outbox (${why})`);
  };
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(to, subject, body) {
        // Phone numbers have no mail server: without an SMS gateway their codes go to the outbox.
        if (!isEmail(to)) return toOutbox(to, subject, body, "not an email address");
        await transport.sendMail({ from: config.SMTP_FROM, to, subject, text: body });
      },
    };
  }
  return { send: (to, subject, body) => toOutbox(to, subject, body, "no SMTP_URL") };
}
