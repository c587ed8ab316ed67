import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics of one process: requests by route, reply streams and their first token,
 * job queues, database pool. Each process keeps its own; Prometheus adds them up per instance.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: "agentfair_http_request_duration_seconds",
    help: "HTTP requests by route pattern, method and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly firstToken = new Histogram({
    name: "agentfair_chat_first_token_seconds",
    help: "Time from a chat request to the first token of its reply",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16],
    registers: [this.registry],
  });
  readonly jobFailures = new Counter({
    name: "agentfair_job_failures_total",
    help: "Jobs whose run failed, by queue",
    labelNames: ["queue"] as const,
    registers: [this.registry],
  });

  /** Gauges read when scraped: `read` answers the current values by label set. */
  gauge(
    name: string,
    help: string,
    labelNames: string[],
    read: () => Promise<[Record<string, string>, number][]> | [Record<string, string>, number][],
  ) {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [labels, value] of await read()) this.set(labels, value);
      },
    });
  }

  /** Times every request, labelled by its route pattern (never the raw URL: ids would explode). */
  install(app: FastifyInstance, token: string) {
    if (!token) return;
    app.addHook("onResponse", async (req, reply) => {
      const route = req.routeOptions.url;
      if (!route || route === "/metrics") return;
      this.requests.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });
    const expected = Buffer.from(`Bearer ${token}`);
    app.get("/metrics", { schema: { hide: true }, logLevel: "warn" }, async (req, reply) => {
      const given = Buffer.from(req.headers.authorization ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return reply.status(401).send({ status: "unauthorized" });
      return reply.type(this.registry.contentType).send(await this.registry.metrics());
    });
  }
}
