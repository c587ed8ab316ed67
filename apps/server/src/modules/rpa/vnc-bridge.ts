import dns from "node:dns/promises";
import type http from "node:http";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Duplex } from "node:stream";
import type { FastifyBaseLogger } from "fastify";
import { type RawData, type WebSocket, WebSocketServer } from "ws";
import { isBlockedAddress } from "../../platform/net.ts";
import { type BridgeTarget, type RpaService, VNC_BRIDGE_PATH } from "./rpa.service.ts";

// noVNC's own DES (VNC authentication reverses the key bits; OpenSSL 3 has no DES by default). The
// package exports only its RFB client, so the file is loaded by its path beside it.
const require = createRequire(import.meta.url);
const desFile = path.join(path.dirname(require.resolve("@novnc/novnc")), "crypto", "des.js");
const { DESECBCipher } = (await import(pathToFileURL(desFile).href)) as {
  DESECBCipher: { importKey(key: number[]): { encrypt(alg: unknown, data: Uint8Array): Uint8Array } };
};

/** VNC authentication's answer to a challenge: the password (8 characters at most) as a DES key. */
export function vncAuthResponse(password: string, challenge: Uint8Array): Buffer {
  const key = [...password.slice(0, 8)].map((c) => c.charCodeAt(0) & 0xff);
  while (key.length < 8) key.push(0);
  return Buffer.from(DESECBCipher.importKey(key).encrypt(null, challenge));
}

/** Client message types (RFB) and what the bridge does with them: view-only, so input never passes. */
const HANDSHAKE_TIMEOUT_MS = 5_000;
const FORWARDED = new Set([0, 2, 3, 150, 248]); // pixel format, encodings, update request, continuous updates, fence
/** Pseudo-encodings that would make the server expect input-shaped messages or offer the clipboard. */
const STRIPPED_ENCODINGS = new Set([-316, -258, -309, 0xc0a1e5ce | 0]); // extended mouse buttons, QEMU keys, xvp, extended clipboard

export interface BridgeStats {
  forwarded: Record<number, number>;
  dropped: Record<number, number>;
}

/** Reads exact byte counts from a stream of chunks. */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);
  private waiter: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | null = null;
  private failed: Error | null = null;

  push(chunk: Buffer) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    this.pump();
  }

  fail(error: Error) {
    this.failed = error;
    if (this.waiter) this.waiter.reject(error);
    this.waiter = null;
  }

  read(n: number): Promise<Buffer> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.waiter = { n, resolve, reject };
      this.pump();
    });
  }

  /** What arrived beyond the handshake. */
  rest() {
    const rest = this.buf;
    this.buf = Buffer.alloc(0);
    return rest;
  }

  private pump() {
    if (!this.waiter || this.buf.length < this.waiter.n) return;
    const { n, resolve } = this.waiter;
    this.waiter = null;
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    resolve(Buffer.from(out));
  }
}

class HandshakeError extends Error {}

/** The server half: negotiates security with the VNC server, the password never leaving the platform. */
async function serverHandshake(reader: ByteReader, socket: net.Socket, password: string | null) {
  const version = (await reader.read(12)).toString("latin1");
  const m = /^RFB (\d{3})\.(\d{3})\n$/.exec(version);
  if (!m) throw new HandshakeError("Invalid server version");
  const minor = Number(m[1]) > 3 ? 8 : Number(m[2]);
  const use = minor >= 8 ? 8 : minor === 7 ? 7 : 3;
  socket.write(`RFB 003.00${use}\n`);
  let type: number;
  if (use === 3) {
    type = (await reader.read(4)).readUInt32BE(0);
    if (type !== 1 && type !== 2) throw new HandshakeError("Unsupported security types");
  } else {
    const count = (await reader.read(1))[0];
    if (count === 0) throw new HandshakeError("Security negotiation failed");
    const types = [...(await reader.read(count))];
    if (password && types.includes(2)) type = 2;
    else if (types.includes(1)) type = 1;
    else throw new HandshakeError("Unsupported security types");
    socket.write(Buffer.from([type]));
  }
  if (type === 2) {
    if (!password) throw new HandshakeError("Unsupported auth scheme");
    socket.write(vncAuthResponse(password, await reader.read(16)));
  }
  if (type === 2 || use === 8) {
    const result = (await reader.read(4)).readUInt32BE(0);
    if (result !== 0) throw new HandshakeError("Security handshake failed");
  }
}

/** The browser half: RFB 3.8 with security "None"; the browser never sees the robot's password. */
async function clientHandshake(reader: ByteReader, ws: WebSocket) {
  ws.send(Buffer.from("RFB 003.008\n", "latin1"));
  const version = (await reader.read(12)).toString("latin1");
  if (!/^RFB 003\.00[378]\n$/.test(version)) throw new HandshakeError("Invalid client version");
  ws.send(Buffer.from([1, 1]));
  if ((await reader.read(1))[0] !== 1) throw new HandshakeError("Unsupported security types");
  ws.send(Buffer.from([0, 0, 0, 0]));
  await reader.read(1); // ClientInit: the bridge always asks for a shared session (sharing on by default)
}

/**
 * Splits the browser's byte stream into RFB client messages; only the view messages pass (input,
 * clipboard, resize and power operations are dropped). Returns null on a message it cannot
 * parse, which ends the session.
 */
export function filterClientMessages(pending: Buffer, stats: BridgeStats): { out: Buffer[]; rest: Buffer } | null {
  const out: Buffer[] = [];
  let buf = pending;
  for (;;) {
    if (buf.length < 1) break;
    const type = buf[0];
    let len: number;
    switch (type) {
      case 0:
        len = 20;
        break;
      case 2:
        if (buf.length < 4) return { out, rest: buf };
        len = 4 + 4 * buf.readUInt16BE(2);
        break;
      case 3:
      case 150:
        len = 10;
        break;
      case 4:
        len = 8;
        break;
      case 5:
        len = 6;
        break;
      case 6:
        if (buf.length < 8) return { out, rest: buf };
        len = 8 + Math.abs(buf.readInt32BE(4));
        if (len > 10 * 1024 * 1024) return null;
        break;
      case 248:
        if (buf.length < 9) return { out, rest: buf };
        len = 9 + buf[8];
        break;
      case 250:
        len = 4;
        break;
      case 251:
        if (buf.length < 8) return { out, rest: buf };
        len = 8 + 16 * buf[6];
        break;
      case 255:
        if (buf.length < 2) return { out, rest: buf };
        if (buf[1] !== 0) return null;
        len = 12;
        break;
      default:
        return null;
    }
    if (buf.length < len) break;
    const message = buf.subarray(0, len);
    buf = buf.subarray(len);
    if (!FORWARDED.has(type)) {
      stats.dropped[type] = (stats.dropped[type] ?? 0) + 1;
      continue;
    }
    stats.forwarded[type] = (stats.forwarded[type] ?? 0) + 1;
    out.push(type === 2 ? stripEncodings(message) : Buffer.from(message));
  }
  return { out, rest: Buffer.from(buf) };
}

function stripEncodings(message: Buffer) {
  const kept: number[] = [];
  for (let i = 4; i < message.length; i += 4) {
    const enc = message.readInt32BE(i);
    if (!STRIPPED_ENCODINGS.has(enc)) kept.push(enc);
  }
  const out = Buffer.alloc(4 + 4 * kept.length);
  out[0] = 2;
  out.writeUInt16BE(kept.length, 2);
  for (const [i, e] of kept.entries()) out.writeInt32BE(e, 4 + 4 * i);
  return out;
}

/** The address to connect to: the robot record's host, refused when private unless the operator set it. */
async function resolveTarget(target: BridgeTarget, allowHosts: string[]) {
  const host = target.host.replace(/^\[|\]$/g, "");
  const allowed = target.allowPrivate || allowHosts.some((h) => h === host || h === `${host}:${target.port}`);
  const addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((a) => a.address);
  const good = allowed ? addresses : addresses.filter((a) => !isBlockedAddress(a));
  if (!good.length) throw new HandshakeError("blocked address");
  return good[0];
}

export interface VncBridgeOptions {
  rpa: RpaService;
  log: FastifyBaseLogger;
  publicUrl: string;
  allowHosts: string[];
  /** How often an open view checks that its sign-in still holds. */
  recheckMs?: number;
}

function refuse(socket: Duplex, status: number, text: string) {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** Same origin as the address the browser used, or the configured public address. */
function originAllowed(req: http.IncomingMessage, publicUrl: string) {
  const origin = req.headers.origin;
  if (!origin) return false;
  const host = req.headers.host;
  const allowed = new Set<string>();
  if (host) {
    allowed.add(`http://${host}`);
    allowed.add(`https://${host}`);
  }
  if (publicUrl) {
    try {
      allowed.add(new URL(publicUrl).origin);
    } catch {
      // a broken PUBLIC_URL adds nothing
    }
  }
  return allowed.has(origin);
}

/**
 * The WebSocket-to-TCP bridge for remote screens: on the HTTP server's upgrade event at
 * VNC_BRIDGE_PATH. A browser brings a single-use ticket; the bridge connects only to the target of
 * the ticket's robot record, answers the VNC security itself, and passes only view messages on.
 */
export function attachVncBridge(server: http.Server, opts: VncBridgeOptions) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const open = new Set<() => void>();

  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://bridge.local");
    if (url.pathname !== VNC_BRIDGE_PATH) return;
    socket.on("error", () => {});
    if (!originAllowed(req, opts.publicUrl)) return refuse(socket, 403, "Forbidden");
    void (async () => {
      const target = await opts.rpa.redeem(url.searchParams.get("ticket") ?? "").catch(() => null);
      if (!target) return refuse(socket, 401, "Unauthorized");
      let address: string;
      try {
        address = await resolveTarget(target, opts.allowHosts);
      } catch {
        return refuse(socket, 502, "Bad Gateway");
      }
      wss.handleUpgrade(req, socket, head, (ws) => bridge(ws, target, address));
    })();
  };
  server.on("upgrade", onUpgrade);

  function bridge(ws: WebSocket, target: BridgeTarget, address: string) {
    const stats: BridgeStats = { forwarded: {}, dropped: {} };
    const tcp = net.connect({ host: address, port: target.port });
    tcp.setNoDelay(true);
    // A VNC server speaks first and at once: one that accepts but stays silent (shutting down, overloaded) is given up quickly.
    tcp.setTimeout(HANDSHAKE_TIMEOUT_MS, () => close("timeout"));
    const serverReader = new ByteReader();
    const clientReader = new ByteReader();
    let streaming = false;
    let pending: Buffer = Buffer.alloc(0);
    let closed = false;
    let timer: NodeJS.Timeout | undefined;
    let recheck: NodeJS.Timeout | undefined;

    const close = (why: string) => {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      clearInterval(recheck);
      open.delete(closeNow);
      tcp.destroy();
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(why === "client" ? 1000 : 4000, why.slice(0, 100));
      opts.log.info({ robotId: target.robotId, userId: target.userId, why, ...stats }, "rpa remote view closed");
    };
    const closeNow = () => close("shutdown");
    open.add(closeNow);

    const toServer = (chunk: Buffer) => {
      const result = filterClientMessages(pending.length ? Buffer.concat([pending, chunk]) : chunk, stats);
      if (!result) return close("unexpected client message");
      pending = result.rest;
      for (const m of result.out) tcp.write(m);
    };

    tcp.on("data", (d) => {
      if (streaming) ws.send(d);
      else serverReader.push(d);
    });
    tcp.on("error", (e) => {
      serverReader.fail(e);
      close("server error");
    });
    tcp.on("close", () => {
      serverReader.fail(new Error("closed"));
      close("server closed");
    });
    ws.on("message", (data: RawData) => {
      const chunk = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (streaming) toServer(chunk);
      else clientReader.push(chunk);
    });
    ws.on("close", () => {
      clientReader.fail(new Error("closed"));
      close("client");
    });
    ws.on("error", () => close("client error"));

    void (async () => {
      try {
        await serverHandshake(serverReader, tcp, target.password);
        await clientHandshake(clientReader, ws);
        tcp.write(Buffer.from([1]));
        streaming = true;
        tcp.setTimeout(0);
        const early = serverReader.rest();
        if (early.length) ws.send(early);
        const fromClient = clientReader.rest();
        if (fromClient.length) toServer(fromClient);
      } catch (e) {
        return close(e instanceof HandshakeError ? e.message : "handshake failed");
      }
      // The view lives as long as the sign-in that asked for it: closed at its end or on logout.
      const until = await opts.rpa.signInValidUntil(target.sessionPairId).catch(() => null);
      if (!until) return close("sign-in ended");
      timer = setTimeout(() => close("sign-in ended"), Math.min(until.getTime() - Date.now(), 2_147_000_000));
      recheck = setInterval(async () => {
        const still = await opts.rpa.signInValidUntil(target.sessionPairId).catch(() => null);
        if (!still) close("sign-in ended");
      }, opts.recheckMs ?? 15_000);
    })();
  }

  return {
    close() {
      server.off("upgrade", onUpgrade);
      for (const c of [...open]) c();
      wss.close();
    },
  };
}
