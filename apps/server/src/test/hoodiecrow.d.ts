// hoodiecrow-imap ships no types: the part the tests use.
declare module "hoodiecrow-imap" {
  import type { Server } from "node:net";
  interface Hoodiecrow {
    server: Server;
    listen(port: number, host: string, callback: () => void): void;
    close(callback?: () => void): void;
    appendMessage(mailbox: string, flags: string[], internaldate: string | false, raw: string): void;
  }
  export default function hoodiecrow(options: {
    users?: Record<string, { password: string }>;
    storage?: Record<string, { messages?: { raw: string; uid?: number }[] }>;
  }): Hoodiecrow;
}
