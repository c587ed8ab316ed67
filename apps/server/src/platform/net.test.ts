import http from "node:http";
import os from "node:os";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlockedAddressError, createSafeFetch, createSafeRequest, isBlockedAddress } from "./net.ts";

describe("safe fetch", () => {
  let server: http.Server;
  let base = "";
  let requests = 0;
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      requests++;
      res.end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("attack: a connection opened for a private model server is never reused under the strict policy", async () => {
    const lenient = createSafeFetch({ allowPrivate: true });
    expect(await (await lenient(`${base}/a`)).text()).toBe("ok");
    expect(await (await lenient(`${base}/b`)).text()).toBe("ok");
    const before = requests;
    await expect(createSafeFetch()(`${base}/c`)).rejects.toThrow();
    expect(requests).toBe(before);
  });

  it("keeps connections alive within a policy", async () => {
    const seen = new Set<number>();
    server.on("connection", (socket) => seen.add(socket.remotePort ?? 0));
    const lenient = createSafeFetch({ allowPrivate: true });
    for (let i = 0; i < 3; i++) await (await lenient(`${base}/k${i}`)).text();
    expect(seen.size).toBeLessThanOrEqual(1);
  });
});

describe("safe request", () => {
  let server: http.Server;
  let base = "";
  const paths: string[] = [];
  const port = () => (server.address() as AddressInfo).port;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      paths.push(`${req.method} ${req.url}`);
      if (req.url === "/to-loopback") return void res.writeHead(302, { location: `http://127.0.0.1:${port()}/x` }).end();
      if (req.url === "/see-other") return void res.writeHead(303, { location: "/after" }).end();
      if (req.url === "/slow") return void res.write("first");
      res.end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://localhost:${port()}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("answers with node's response stream, following redirects (303 makes a POST a GET)", async () => {
    const res = await createSafeRequest({ allowPrivate: true })(`${base}/see-other`, { method: "POST", body: "{}" });
    expect(res.statusCode).toBe(200);
    res.setEncoding("utf8");
    let text = "";
    for await (const chunk of res) text += chunk;
    expect(text).toBe("ok");
    expect(paths.slice(-2)).toEqual(["POST /see-other", "GET /after"]);
  });

  it("attack: a redirect from an allowed private host to another private address is refused before it is requested", async () => {
    const request = createSafeRequest({ allowHosts: [`localhost:${port()}`] });
    await expect(request(`${base}/to-loopback`)).rejects.toBeInstanceOf(BlockedAddressError);
    expect(paths.at(-1)).toBe("GET /to-loopback");
    await expect(createSafeRequest()(`${base}/`)).rejects.toBeInstanceOf(BlockedAddressError);
  });

  it("aborting its signal ends a response that is still streaming", async () => {
    const controller = new AbortController();
    const res = await createSafeRequest({ allowPrivate: true })(`${base}/slow`, { signal: controller.signal });
    const reading = (async () => {
      for await (const _ of res);
    })();
    controller.abort();
    await expect(reading).rejects.toThrow();
  });
});

describe("blocked addresses", () => {
  it("attack: private IPv4 addresses embedded in IPv6 forms are refused (compatible, mapped, 6to4, NAT64, Teredo)", () => {
    for (const a of [
      "::127.0.0.1",
      "::7f00:1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "0:0:0:0:0:ffff:c0a8:0101",
      "2002:7f00:0001::",
      "2002:c0a8:0101:1::5",
      "2002:a9fe:a9fe::",
      "64:ff9b::10.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b:1::a00:1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    ])
      expect(isBlockedAddress(a), a).toBe(true);
    for (const a of ["2002:0808:0808::1", "2606:4700::1111", "8.8.8.8"]) expect(isBlockedAddress(a), a).toBe(false);
  });

  it("attack: the host's own addresses are refused, public ones too", () => {
    const own = Object.values(os.networkInterfaces())
      .flat()
      .map((i) => i?.address)
      .filter((a): a is string => !!a);
    expect(own.length).toBeGreaterThan(0);
    for (const a of own) expect(isBlockedAddress(a), a).toBe(true);
  });

  it("attack: a URL naming [::127.0.0.1] is refused before any connection", async () => {
    await expect(createSafeFetch()("http://[::127.0.0.1]:1/")).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(createSafeFetch()("http://[::ffff:127.0.0.1]:1/")).rejects.toBeInstanceOf(BlockedAddressError);
  });
});
