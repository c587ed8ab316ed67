import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import { Readable } from "node:stream";

/**
 * Safe fetch for outbound calls to URLs that users or administrators typed (model base URLs,
 * HTTP plugins, OpenAPI import, MCP). Private, loopback, link-local and other special addresses
 * are refused at connect time (the resolved address is checked, so DNS rebinding does not get
 * through) and again on every redirect, unless the caller allows private targets (an operator's
 * env base URL or an administrator's allow-list).
 */
export class BlockedAddressError extends Error {
  constructor(readonly target: string) {
    super(`blocked address: ${target}`);
    this.name = "BlockedAddressError";
  }
}

const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(addr, prefix, "ipv4");
for (const [addr, prefix] of [
  ["::", 96],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(addr, prefix, "ipv6");

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail read as two). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right].map((g) => Number.parseInt(g, 16));
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 form carries, where reaching the IPv6 address reaches that IPv4 host
 * (or a host chosen by it): IPv4-compatible ::a.b.c.d, mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96
 * and the local-use 64:ff9b:1::/48, 6to4 2002:AABB:CCDD::/48.
 */
function embeddedIpv4(g: number[]): string | null {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return ipv4Of(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b) return ipv4Of(g[6], g[7]);
  if (g[0] === 0x2002) return ipv4Of(g[1], g[2]);
  return null;
}

/** The host's own interface addresses (public ones included): re-read at most once a minute. */
let own = { at: 0, addresses: new Set<string>() };
function ownAddresses() {
  if (Date.now() - own.at > 60_000) {
    const list = Object.values(os.networkInterfaces()).flatMap((i) => i ?? []);
    own = { at: Date.now(), addresses: new Set(list.map((i) => i.address.toLowerCase())) };
  }
  return own.addresses;
}

/** True for addresses a user-supplied URL may not reach. */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  if (ownAddresses().has(address.toLowerCase())) return true;
  if (family === 4) return blocked.check(address, "ipv4");
  const groups = ipv6Groups(address);
  const v4 = embeddedIpv4(groups);
  if (v4) return blocked.check(v4, "ipv4") || ownAddresses().has(v4);
  // Teredo (2001:0::/32) tunnels to an IPv4 address the packet itself chooses.
  if (groups[0] === 0x2001 && groups[1] === 0) return true;
  return blocked.check(address, "ipv6");
}

/** A response body ran past the reader's `maxResponseBytes`: the connection was closed there. */
export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the response is larger than ${limit} bytes`);
    this.name = "ResponseTooLargeError";
  }
}

export interface SafeFetchOptions {
  /** Private and loopback targets allowed (operator-set or administrator allow-listed). */
  allowPrivate?: boolean;
  /** Host names (or host:port) that may be private, from the administrator's allow-list. */
  allowHosts?: string[];
  maxRedirects?: number;
  /**
   * Most bytes of one response body: past them (or a larger Content-Length) the body fails with
   * ResponseTooLargeError and the connection closes, so a reader that takes the whole body at once
   * (`arrayBuffer()`, `json()`, a client library) never holds more.
   */
  maxResponseBytes?: number;
}

const hostAllowed = (url: URL, opts: SafeFetchOptions) =>
  opts.allowPrivate || (opts.allowHosts ?? []).some((h) => h === url.hostname || h === url.host);

function guardedLookup(url: URL, opts: SafeFetchOptions): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return (callback as (e: Error) => void)(err);
      const list = addresses as dns.LookupAddress[];
      const good = hostAllowed(url, opts) ? list : list.filter((a) => !isBlockedAddress(a.address));
      if (!good.length) return (callback as (e: Error) => void)(new BlockedAddressError(hostname));
      if ((options as dns.LookupOptions).all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, good);
      (callback as (e: null, a: string, f: number) => void)(null, good[0].address, good[0].family);
    });
  };
}

function assertUrl(url: URL, opts: SafeFetchOptions) {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new BlockedAddressError(url.protocol);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host) && isBlockedAddress(host) && !hostAllowed(url, opts)) throw new BlockedAddressError(host);
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

async function bodyOf(init: RequestInit | undefined): Promise<Buffer | undefined> {
  if (init?.body == null) return undefined;
  if (typeof init.body === "string") return Buffer.from(init.body);
  return Buffer.from(await new Response(init.body as BodyInit).arrayBuffer());
}

export interface SafeRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
}
export type SafeRequest = (url: string | URL, init?: SafeRequestInit) => Promise<http.IncomingMessage>;

/**
 * A request under the same guard as safe fetch, answered with node's own response stream: a body
 * read as it comes (a model's reply) needs no web streams on top (two streams, a reader and their
 * promises per chunk). Redirects are followed and checked; aborting `signal` ends the response too.
 */
export function createSafeRequest(opts: SafeFetchOptions = {}): SafeRequest {
  return async (input, init = {}) => {
    let url = new URL(String(input));
    let method = (init.method ?? "GET").toUpperCase();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
    let body = typeof init.body === "string" ? Buffer.from(init.body) : init.body;
    for (let hop = 0; hop <= (opts.maxRedirects ?? 5); hop++) {
      assertUrl(url, opts);
      const res = await send(url, method, headers, body, init.signal, opts);
      const status = res.statusCode ?? 0;
      if (![301, 302, 303, 307, 308].includes(status) || !res.headers.location) return res;
      res.resume();
      url = new URL(res.headers.location, url);
      if ((status === 303 && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        delete headers["content-type"];
        delete headers["content-length"];
      }
    }
    throw new BlockedAddressError("too many redirects");
  };
}

/** A `fetch` with the same shape as the global one, for the AI SDK and other clients. */
export function createSafeFetch(opts: SafeFetchOptions = {}): typeof fetch {
  const request = createSafeRequest(opts);
  const safeFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const res = await request(input instanceof Request ? input.url : String(input), {
      method,
      headers: headersOf(init),
      body: await bodyOf(init),
      signal: init?.signal ?? undefined,
    });
    const status = res.statusCode ?? 0;
    const responseHeaders = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (Array.isArray(v)) for (const item of v) responseHeaders.append(k, item);
      else if (v !== undefined) responseHeaders.set(k, v);
    }
    const nullBody = method === "HEAD" || status === 204 || status === 304;
    const stream = nullBody ? null : capped(res, opts.maxResponseBytes);
    return new Response(stream, { status, statusText: res.statusMessage, headers: responseHeaders });
  };
  return safeFetch as typeof fetch;
}

/** A response's body as a web stream, failing past `max` bytes (and closing the connection there). */
function capped(res: http.IncomingMessage, max: number | undefined): ReadableStream<Uint8Array> {
  const body = Readable.toWeb(res) as ReadableStream<Uint8Array>;
  if (max === undefined) return body;
  const tooLarge = () => {
    res.destroy();
    return new ResponseTooLargeError(max);
  };
  if (Number(res.headers["content-length"] ?? 0) > max) {
    const err = tooLarge();
    return new ReadableStream({ start: (c) => c.error(err) });
  }
  let read = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > max) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * Kept-alive connections, pooled per policy: a connection checked under a lenient policy (a
 * private model server) is never handed to a request under a strict one for the same host.
 */
const pools = new Map<string, { http: http.Agent; https: https.Agent }>();
function poolFor(opts: SafeFetchOptions) {
  const key = `${!!opts.allowPrivate}|${(opts.allowHosts ?? []).join(",")}`;
  let pool = pools.get(key);
  if (!pool) {
    // Idle connections close after a while, so a pool of a policy no longer used empties itself.
    pool = { http: new http.Agent({ keepAlive: true, timeout: 30_000 }), https: new https.Agent({ keepAlive: true, timeout: 30_000 }) };
    pools.set(key, pool);
  }
  return pool;
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal | undefined,
  opts: SafeFetchOptions,
) {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const secure = url.protocol === "https:";
    const req = (secure ? https : http).request(
      url,
      {
        method,
        headers: body ? { ...headers, "content-length": String(body.length) } : headers,
        lookup: guardedLookup(url, opts),
        agent: secure ? poolFor(opts).https : poolFor(opts).http,
        signal,
      },
      resolve,
    );
    req.on("error", reject);
    if (body) req.end(body);
    else req.end();
  });
}

/**
 * The address a socket to a user-given host may connect to (IMAP, not a URL): the same rule as
 * safe fetch, checked on the resolved address the connection then uses (no second lookup to rebind).
 */
export async function safeAddress(host: string, port: number, opts: SafeFetchOptions = {}): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, "");
  const allowed = opts.allowPrivate || (opts.allowHosts ?? []).some((h) => h === bare || h === `${bare}:${port}`);
  const list = net.isIP(bare) ? [{ address: bare }] : await dns.promises.lookup(bare, { all: true });
  const good = allowed ? list : list.filter((a) => !isBlockedAddress(a.address));
  if (!good.length) throw new BlockedAddressError(bare);
  return good[0].address;
}
