import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
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
  ["64:ff9b::", 96],
] as const)
  blocked.addSubnet(addr, prefix, "ipv6");

/** True for addresses a user-supplied URL may not reach. */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) {
    const mapped = address.toLowerCase().match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
    if (mapped) return blocked.check(mapped[1], "ipv4");
    return blocked.check(address, "ipv6");
  }
  return true;
}

export interface SafeFetchOptions {
  /** Private and loopback targets allowed (operator-set or administrator allow-listed). */
  allowPrivate?: boolean;
  /** Host names (or host:port) that may be private, from the administrator's allow-list. */
  allowHosts?: string[];
  maxRedirects?: number;
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

/** A `fetch` with the same shape as the global one, for the AI SDK and other clients. */
export function createSafeFetch(opts: SafeFetchOptions = {}): typeof fetch {
  const safeFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const headers = headersOf(init);
    let body = await bodyOf(init);
    const signal = init?.signal ?? undefined;
    for (let hop = 0; hop <= (opts.maxRedirects ?? 5); hop++) {
      assertUrl(url, opts);
      const res = await send(url, method, headers, body, signal, opts);
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
        res.resume();
        url = new URL(res.headers.location, url);
        if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
          delete headers["content-type"];
          delete headers["content-length"];
        }
        continue;
      }
      const responseHeaders = new Headers();
      for (const [k, v] of Object.entries(res.headers)) {
        if (Array.isArray(v)) for (const item of v) responseHeaders.append(k, item);
        else if (v !== undefined) responseHeaders.set(k, v);
      }
      const nullBody = method === "HEAD" || status === 204 || status === 304;
      const stream = nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
      return new Response(stream, { status, statusText: res.statusMessage, headers: responseHeaders });
    }
    throw new BlockedAddressError("too many redirects");
  };
  return safeFetch as typeof fetch;
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
