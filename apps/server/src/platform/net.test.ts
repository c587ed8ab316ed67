import http from "node:http";
import os from "node:os";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlockedAddressError, createSafeFetch, isBlockedAddress } from "./net.ts";

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
