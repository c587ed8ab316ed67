import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSafeFetch } from "./net.ts";

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
