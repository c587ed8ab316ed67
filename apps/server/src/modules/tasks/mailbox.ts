import { TASK_MAIL_INPUT_MAX } from "@agentfair/contracts";
import { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { safeAddress } from "../../platform/net.ts";

/** A mailbox an e-mail-triggered task reads (server address, port, protocol, account). */
export interface Mailbox {
  host: string;
  port: number;
  protocol: "imaps" | "imap";
  account: string;
  password: string;
}

/** Where the last look stopped: the INBOX's UIDVALIDITY and the last UID taken. */
export interface MailMark {
  uidValidity: string | null;
  lastUid: number | null;
}

export interface NewMail {
  uid: number;
  /** Subject, sender and text, as the agent is asked. */
  text: string;
}

/** One look never takes more mails than this; the rest wait for the next look. */
const MAILS_PER_LOOK = 20;
const CONNECT_TIMEOUT_MS = 15_000;

/**
 * One look gives up after this long, whatever the server does: a server that keeps answering a
 * little at a time never lets the socket idle out, and the looks at everyone's mailboxes wait on it.
 */
export const MAIL_LOOK_TIMEOUT_MS = 60_000;
/** A mail is read up to this many bytes: its text is cut to TASK_MAIL_INPUT_MAX anyway. */
const MAIL_SOURCE_MAX = 256 * 1024;

/** A look that ran out of time (its mailbox shows why on the task). */
export class MailLookTimeout extends Error {
  constructor(readonly seconds: number) {
    super(`the mail server did not answer within ${seconds} s`);
  }
}

/**
 * The INBOX's mail after the mark. A first look (or a mailbox whose UIDVALIDITY changed, so old
 * UIDs mean nothing) only sets the mark: mail already there does not start runs. At most `maxMails`
 * are taken (the rest wait for the next look); the whole look, from connecting to logging out, ends
 * within `timeoutMs`.
 */
export async function newMail(
  box: Mailbox,
  mark: MailMark,
  allowHosts: string[],
  { timeoutMs = MAIL_LOOK_TIMEOUT_MS, maxMails = MAILS_PER_LOOK }: { timeoutMs?: number; maxMails?: number } = {},
): Promise<{ mark: MailMark; mails: NewMail[] }> {
  // The user-given host is checked like a URL (no private networks) and the socket goes to that address.
  const address = await safeAddress(box.host, box.port, { allowHosts });
  const client = new ImapFlow({
    host: address,
    port: box.port,
    secure: box.protocol === "imaps",
    servername: box.host,
    auth: { user: box.account, pass: box.password },
    logger: false,
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: 60_000,
  });
  // A dropped connection is reported through the call that was waiting on it.
  client.on("error", () => {});
  let timedOut = false;
  // Closing the connection fails whatever command is waiting on it.
  const timer = setTimeout(() => {
    timedOut = true;
    client.close();
  }, timeoutMs);
  try {
    await client.connect();
    try {
      return await look(client, mark, Math.min(maxMails, MAILS_PER_LOOK));
    } finally {
      await client.logout().catch(() => client.close());
    }
  } catch (err) {
    if (timedOut) throw new MailLookTimeout(Math.round(timeoutMs / 1000));
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

async function look(client: ImapFlow, mark: MailMark, maxMails: number): Promise<{ mark: MailMark; mails: NewMail[] }> {
  const lock = await client.getMailboxLock("INBOX", { readOnly: true });
  try {
    const mailbox = client.mailbox;
    if (!mailbox) return { mark, mails: [] };
    const uidValidity = String(mailbox.uidValidity);
    const top = Number(mailbox.uidNext) - 1;
    if (mark.uidValidity !== uidValidity || mark.lastUid === null) return { mark: { uidValidity, lastUid: top }, mails: [] };
    if (top <= mark.lastUid) return { mark, mails: [] };
    // The new UIDs first ("n:*" names the newest mail even when its UID is below n: only UIDs past
    // the mark count), then the text of the oldest few only: a full mailbox is not read at once.
    const uids: number[] = [];
    for await (const msg of client.fetch(`${mark.lastUid + 1}:*`, { uid: true }, { uid: true })) {
      if (msg.uid > mark.lastUid) uids.push(msg.uid);
    }
    const taken = uids.sort((a, b) => a - b).slice(0, maxMails);
    if (!taken.length) return { mark, mails: [] };
    const mails: NewMail[] = [];
    const query = { uid: true, source: { start: 0, maxLength: MAIL_SOURCE_MAX } };
    for await (const msg of client.fetch(taken.join(","), query, { uid: true })) {
      if (!taken.includes(msg.uid) || !msg.source) continue;
      mails.push({ uid: msg.uid, text: await mailText(msg.source) });
    }
    mails.sort((a, b) => a.uid - b.uid);
    return { mark: { uidValidity, lastUid: taken[taken.length - 1] }, mails };
  } finally {
    lock.release();
  }
}

async function mailText(source: Buffer) {
  const parsed = await simpleParser(source);
  const from = parsed.from?.text ?? "";
  const body = (parsed.text ?? "").trim();
  // A NUL cannot be stored in a text column (a broken or binary part can carry one).
  return [`From: ${from}`, `Subject: ${parsed.subject ?? ""}`, "", body].join("\n").replaceAll("\u0000", "").slice(0, TASK_MAIL_INPUT_MAX);
}
