import { setMaxListeners } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CHAT_FILE_MAX_BYTES, platformSettings, envelope } from "@agentfair/contracts";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { type Config, recordFilingVariants } from "./config.ts";
import type { Database } from "./db/client.ts";
import { authRoutes } from "./modules/auth/auth.routes.ts";
import { agentDraftRoutes, agentRuntimeCountRoutes, agentsRoutes } from "./modules/agents/agents.routes.ts";
import { AgentsService } from "./modules/agents/agents.service.ts";
import { agentBackupRoutes } from "./modules/agents/agents.backup.ts";
import { designerRoutes } from "./modules/designer/designer.routes.ts";
import { DesignerService } from "./modules/designer/designer.service.ts";
import { filesRoutes } from "./modules/files/files.routes.ts";
import { knowledgeRoutes } from "./modules/knowledge/knowledge.routes.ts";
import { knowledgeForRuntime, knowledgeToolKind } from "./modules/knowledge/knowledge.runtime.ts";
import { KnowledgeService } from "./modules/knowledge/knowledge.service.ts";
import { FilesService } from "./modules/files/files.service.ts";
import { createFileStore } from "./platform/files.ts";
import { BillingService } from "./modules/billing/billing.service.ts";
import { billingAdminRoutes } from "./modules/billing/billing.admin.routes.ts";
import { billingRoutes } from "./modules/billing/billing.routes.ts";
import { type ChatModule, createChatModule } from "./modules/chat/chat.module.ts";
import { createChannelsModule } from "./modules/channels/channels.module.ts";
import { AuthService } from "./modules/auth/auth.service.ts";
import { tenantsAdminRoutes } from "./modules/tenants/tenants.admin.routes.ts";
import { tenantMembersRoutes } from "./modules/tenants/tenants.members.routes.ts";
import { TenantMembersService } from "./modules/tenants/tenants.members.service.ts";
import { TenantsAdminService } from "./modules/tenants/tenants.admin.service.ts";
import { tenantsRoutes } from "./modules/tenants/tenants.routes.ts";
import { TenantsService } from "./modules/tenants/tenants.service.ts";
import { McpClient, parseStdioCommands } from "./modules/tools/mcp-client.ts";
import { pluginToolKind } from "./modules/tools/plugin-tools.ts";
import { toolsRoutes } from "./modules/tools/tools.routes.ts";
import { ToolsService } from "./modules/tools/tools.service.ts";
import { workflowPlugins } from "./modules/tools/workflow-plugins.ts";
import { workflowToolKind } from "./modules/workflows/workflow-tools.ts";
import { agentHandoffKind, workflowOrchestrator } from "./modules/workflows/orchestration.ts";
import type { ChatOrchestrator, InsightForChat } from "./modules/chat/chat.service.ts";
import { workflowsRoutes } from "./modules/workflows/workflows.routes.ts";
import { WorkflowsService } from "./modules/workflows/workflows.service.ts";
import { usersRoutes } from "./modules/users/users.routes.ts";
import { cardsRoutes } from "./modules/cards/cards.routes.ts";
import { CardsService } from "./modules/cards/cards.service.ts";
import { datatablesRoutes } from "./modules/datatables/datatables.routes.ts";
import { DatatablesService } from "./modules/datatables/datatables.service.ts";
import { ruleToolKind } from "./modules/rules/rule-tools.ts";
import { rulesRoutes } from "./modules/rules/rules.routes.ts";
import { RulesService } from "./modules/rules/rules.service.ts";
import { rpaRoutes, rpaRuntimeRoutes } from "./modules/rpa/rpa.routes.ts";
import { robotsRoutes } from "./modules/robots/robots.routes.ts";
import { RobotsService } from "./modules/robots/robots.service.ts";
import { rpaToolKind } from "./modules/rpa/rpa.runtime.ts";
import { RpaService } from "./modules/rpa/rpa.service.ts";
import { attachVncBridge } from "./modules/rpa/vnc-bridge.ts";
import { UsersService } from "./modules/users/users.service.ts";
import { insightReportRoutes, insightRuntimeRoutes } from "./modules/insight/insight.routes.ts";
import { ChatInsightService } from "./modules/insight/chat-insight.service.ts";
import { InsightService } from "./modules/insight/insight.service.ts";
import { ReportPrinter } from "./modules/insight/report-export.ts";
import { tasksRoutes } from "./modules/tasks/tasks.routes.ts";
import { TasksService } from "./modules/tasks/tasks.service.ts";
import { bearerToken, CallerCache } from "./platform/auth.ts";
import { Invalidation } from "./platform/invalidation.ts";
import { Metrics } from "./platform/metrics.ts";
import {
  installErrorHandler,
  installSecurityHeaders,
  installJsonParser,
  installUploadGuard,
  logDestination,
  loggerOptions,
  PREFIXES,
  PREFIX_TABLE,
  RequestLog,
  sendOk,
} from "./platform/http.ts";
import { Jobs } from "./platform/jobs.ts";
import { createMailer } from "./platform/mail.ts";
import type { Platform } from "./platform/platform.ts";
import { RateLimiter } from "./platform/rate-limit.ts";
import { Sandboxes } from "./platform/sandbox/index.ts";
import { loadSecret } from "./platform/secret.ts";

export interface BuiltApp {
  app: FastifyInstance;
  platform: Platform;
  services: {
    auth: AuthService;
    tenants: TenantsService;
    users: UsersService;
    billing: BillingService;
    chat: ChatModule;
    agents: AgentsService;
    files: FilesService;
    tools: ToolsService;
    knowledge: KnowledgeService;
    workflows: WorkflowsService;
    cards: CardsService;
    datatables: DatatablesService;
    rules: RulesService;
    rpa: RpaService;
    insight: InsightService;
    chatInsight: ChatInsightService;
    robots: RobotsService;
    tasks: TasksService;
  };
}

/** How long a closing process waits for its reply streams to end (they are aborted at once). */
const SHUTDOWN_DRAIN_MS = 10_000;

export async function buildApp(config: Config, database: Database): Promise<BuiltApp> {
  const app = Fastify({
    logger: { ...loggerOptions(config.LOG_LEVEL), ...(config.LOG_LEVEL !== "silent" && { stream: logDestination() }) },
    logController: new RequestLog(config.REQUEST_LOG_SLOW_MS),
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: "x-request-id",
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 2 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installJsonParser(app);

  const db = database.db;
  const shutdown = new AbortController();
  // Every open reply and task run listens to it (one listener each, removed when done): more than
  // Node's default of 10 at once is the normal case, not a leak.
  setMaxListeners(0, shutdown.signal);
  app.addHook("preClose", async () => shutdown.abort());
  const invalidation = new Invalidation(database, app.log);
  await invalidation.start();
  app.addHook("onClose", () => invalidation.stop());
  const metrics = new Metrics();
  metrics.install(app, config.METRICS_TOKEN);
  const platform: Platform = {
    config,
    database,
    db,
    jobs: new Jobs(database.executeSql, app.log, invalidation, (queue) => metrics.jobFailures.inc({ queue })),
    metrics,
    mailer: createMailer(config, db, app.log),
    rateLimiter: new RateLimiter(db),
    secret: await loadSecret(config, db),
    log: app.log,
    callers: new CallerCache(db, config, invalidation),
    invalidation,
    invalidate: (topic, key, tx) => invalidation.publish(topic, key, tx),
    stopping: shutdown.signal,
  };

  // Files downloaded straight from an S3 store by presigned URL.
  const fileStore = config.S3_PUBLIC_ENDPOINT ? [new URL(config.S3_PUBLIC_ENDPOINT).origin] : [];
  installSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", "data:", "blob:", ...fileStore, ...config.MAP_ORIGINS],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'", ...fileStore, ...config.MAP_ORIGINS],
        mediaSrc: ["'self'", "blob:", "data:", ...fileStore],
        frameSrc: ["'self'"],
        // helmet's default also allows fonts from any https site: a way out for injected CSS.
        fontSrc: ["'self'", "data:"],
        workerSrc: ["'self'", "blob:"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: 15 * 1024 * 1024, files: 1 } });
  await app.register(swagger, {
    openapi: {
      info: {
        title: "Agentfair API",
        version: "1.0.0",
        description: `Every call of the platform. Responses use the envelope \`{ code, msg, data }\`; code 200 (0 for the knowledge service) means success.\n\n${PREFIX_TABLE}`,
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });

  app.decorateRequest("caller", null);
  // A callback hook: a request without a token (public pages, assets, health checks) settles no promise.
  app.addHook("onRequest", (req, _reply, done) => {
    const token = bearerToken(req);
    if (!token) return done();
    platform.callers.resolve(token, req.url.startsWith(`${PREFIXES.report}/`) ? "report" : "web").then((caller) => {
      req.caller = caller;
      done();
    }, done);
  });
  // The largest upload is a chat attachment; the form around it adds a little.
  installUploadGuard(app, CHAT_FILE_MAX_BYTES + 64 * 1024);

  const billing = new BillingService(platform);
  const tenants = new TenantsService(db);
  const users = new UsersService(db, billing);
  const agents = new AgentsService(platform, billing, tenants);
  billing.useAgents(agents);
  const files = new FilesService(db, createFileStore(config), tenants, platform.rateLimiter);
  const auth = new AuthService(platform, tenants);
  platform.jobs.schedule("auth.purge-expired", "*/10 * * * *", () => auth.purgeExpired());
  let knowledge: KnowledgeService | undefined;
  let insightForChat: InsightForChat | undefined;
  let orchestrator: ChatOrchestrator | undefined;
  let designer: DesignerService | undefined;
  const chat = await createChatModule(platform, {
    agents: () => agents,
    billing: () => billing,
    files: () => files,
    knowledge: () => knowledge && knowledgeForRuntime(knowledge),
    insight: () => insightForChat,
    orchestrator: () => orchestrator,
    replyWidgets: () => designer,
    owners: () => agents,
    qa: () => knowledge,
  });
  // On close: streams end (with an error event, saved) before the server stops, so their
  // connections are idle when it closes them.
  app.addHook("preClose", () => chat.chat.drain(SHUTDOWN_DRAIN_MS));
  metrics.gauge("agentfair_chat_streams", "Reply streams open in this process", [], () => [[{}, chat.chat.openStreams]]);
  metrics.gauge("agentfair_job_queue_depth", "Jobs waiting to run, by queue", ["queue"], () => platform.jobs.depths());
  metrics.gauge("agentfair_db_pool_connections", "PostgreSQL pool connections by state", ["state"], () => {
    const pool = database.pool?.();
    return pool ? Object.entries(pool).map(([state, n]) => [{ state }, n]) : [];
  });
  knowledge = new KnowledgeService(platform, { files, models: chat.models, billing });
  await knowledge.init();
  chat.tools.register(knowledgeToolKind(knowledge));
  const sandboxes = new Sandboxes({
    timeoutMs: config.PLUGIN_TIMEOUT_MS,
    memoryMb: config.SANDBOX_MEMORY_MB,
    jsWorkers: config.SANDBOX_JS_WORKERS,
    pyWorkers: config.SANDBOX_PY_WORKERS,
    maxResultBytes: config.PLUGIN_RESPONSE_MAX_BYTES,
  });
  app.addHook("onClose", () => sandboxes.close());
  const mcp = new McpClient({
    allowHosts: config.NET_ALLOW_HOSTS,
    timeoutMs: config.PLUGIN_TIMEOUT_MS,
    stdio: parseStdioCommands(config.MCP_STDIO_COMMANDS),
  });
  const tools = new ToolsService(platform, sandboxes, { models: () => chat.models, mcp, billing: () => billing });
  chat.tools.register(pluginToolKind(tools));
  const wfPlugins = workflowPlugins(tools);
  const workflows = new WorkflowsService(platform, {
    plugins: wfPlugins,
    sandboxes,
    models: () => chat.models,
    knowledge: () => knowledge,
    agents: () => agents,
    billing: () => billing,
    checkpointUrl: database.driver === "postgres" ? config.DATABASE_URL || undefined : undefined,
  });
  app.addHook("onClose", () => workflows.close());
  chat.tools.register(workflowToolKind(workflows, wfPlugins));
  chat.tools.register(agentHandoffKind(workflows));
  orchestrator = workflowOrchestrator(workflows, wfPlugins);
  const cards = new CardsService(platform, () => tools);
  chat.tools.decorate(cards.decorator());
  designer = new DesignerService(db, () => tools);
  chat.tools.decorate(designer.decorator());
  agents.useDesigns(designer);
  const datatables = new DatatablesService(platform);
  app.addHook("onClose", () => datatables.close());
  const rules = new RulesService(platform, { datatables, models: () => chat.models });
  chat.tools.register(ruleToolKind(rules));
  agents.useRules(rules);
  const printer = new ReportPrinter(config.CHROMIUM_PATH);
  app.addHook("onClose", () => printer.close());
  const insight = new InsightService(platform, {
    datatables,
    models: () => chat.models,
    billing: () => billing,
    chat: () => chat.chat,
    printer,
    knowledge: () =>
      knowledge && {
        async passages(agent, query) {
          const { hits } = (await knowledge?.retrieveForAgent(agent, query, { topK: 8 })) ?? { hits: [] };
          return hits.map((h) => ({
            source: h.question ?? h.title ?? h.content.slice(0, 30).replace(/\s+/g, " "),
            text: h.answer ? `${h.question}\n${h.answer}` : h.content,
          }));
        },
      },
  });
  const chatInsight = new ChatInsightService(platform, { models: () => chat.models, chat: () => chat.chat });
  insightForChat = {
    start: (ctx) => insight.start(ctx),
    settle: (caller, reportId, opts) => insight.settle(caller, reportId, opts),
    replied: (ctx) => chatInsight.replied(ctx),
  };
  const rpa = new RpaService(platform, () => chat.chat);
  chat.tools.register(rpaToolKind(rpa));
  platform.jobs.schedule("rpa.purge-tickets", "*/10 * * * *", () => rpa.purgeTickets());
  const vncBridge = attachVncBridge(app.server, { rpa, log: app.log, publicUrl: config.PUBLIC_URL, allowHosts: config.NET_ALLOW_HOSTS });
  app.addHook("onClose", async () => vncBridge.close());
  const robots = new RobotsService(platform, { agents: () => agents, chat: () => chat.chat });
  const tasks = new TasksService(platform, {
    agents: () => agents,
    workflows: () => workflows,
    chat: () => chat.chat,
    robots: () => robots,
  });

  // Liveness: the process answers. Readiness: it is not shutting down and its database answers
  // (migrations ran before the server listened), so a balancer sends it requests.
  app.get("/healthz", { schema: { hide: true }, logLevel: "warn" }, async () => ({ status: "ok" }));
  app.get("/readyz", { schema: { hide: true }, logLevel: "warn" }, async (_req, reply) => {
    if (shutdown.signal.aborted) return reply.status(503).send({ status: "stopping" });
    try {
      await db.execute(sql`select 1`);
      return { status: "ok", driver: database.driver };
    } catch {
      return reply.status(503).send({ status: "unavailable" });
    }
  });

  await app.register(
    async (agentApi) => {
      // From the configuration alone: checked and serialised once.
      const settings = JSON.stringify(
        platformSettings.parse({
          captchaEnabled: config.CAPTCHA === "on",
          rpaHost: config.RPA_HOST,
          enterpriseTenant: config.ENTERPRISE_TENANT,
          recordFiling: recordFilingVariants(config),
          bankTransferEnabled: config.BANK_TRANSFER,
        }),
      );
      agentApi.get(
        "/api/platform/settings",
        { schema: { tags: ["platform"], summary: "Settings the web needs before sign-in", response: { 200: envelope(platformSettings) } } },
        (_req, reply) => {
          sendOk(reply, settings);
        },
      );
      await agentApi.register(authRoutes, { auth, platform });
      await agentApi.register(tenantsRoutes, { tenants });
      const members = new TenantMembersService(platform, auth);
      await agentApi.register(tenantsAdminRoutes, { tenantsAdmin: new TenantsAdminService(platform, members) });
      await agentApi.register(tenantMembersRoutes, { members });
      await agentApi.register(usersRoutes, { users });
      await agentApi.register(billingRoutes, { billing });
      await agentApi.register(billingAdminRoutes, { billing });
      await agentApi.register(agentsRoutes, { agents });
      await agentApi.register(filesRoutes, { files });
      await agentApi.register(rpaRoutes, { rpa, allowHosts: config.NET_ALLOW_HOSTS });
    },
    { prefix: PREFIXES.agent },
  );

  await app.register(knowledgeRoutes, { prefix: PREFIXES.knowledge, knowledge });
  await app.register(agentDraftRoutes, { prefix: PREFIXES.builder, agents });
  await app.register(toolsRoutes, { prefix: PREFIXES.builder, tools });
  await app.register(workflowsRoutes, { prefix: PREFIXES.builder, workflows });
  await app.register(designerRoutes, { prefix: PREFIXES.builder, designer });
  await app.register(cardsRoutes, { prefix: PREFIXES.builder, cards });
  await app.register(datatablesRoutes, { prefix: PREFIXES.builder, datatables });
  await app.register(rulesRoutes, { prefix: PREFIXES.builder, rules });
  await app.register(tasksRoutes, { prefix: PREFIXES.builder, tasks });
  await app.register(agentBackupRoutes, { prefix: PREFIXES.builder, agents });
  await app.register(agentRuntimeCountRoutes, { prefix: PREFIXES.runtime, agents });
  await app.register(chat.plugin);
  await app.register(rpaRuntimeRoutes, { prefix: PREFIXES.runtime, rpa });
  const channels = createChannelsModule(platform, { agents, chat });
  await app.register(channels.plugin);
  await app.register(insightRuntimeRoutes, { prefix: PREFIXES.runtime, insight, chatInsight });
  await app.register(insightReportRoutes, { prefix: PREFIXES.report, insight });
  await app.register(robotsRoutes, { prefix: PREFIXES.builder, robots });
  await serveWeb(app, config);
  return {
    app,
    platform,
    services: {
      auth,
      tenants,
      users,
      billing,
      chat,
      agents,
      files,
      tools,
      knowledge,
      workflows,
      cards,
      datatables,
      rules,
      rpa,
      insight,
      chatInsight,
      robots,
      tasks,
    },
  };
}

/**
 * The built web app, with the single-page fallback for every non-API path. Hashed assets never
 * change under their name: cached for a year and sent as built (brotli or gzip, written by the web
 * build). Everything else, index.html first, is asked for again so a new release is seen at once.
 */
async function serveWeb(app: FastifyInstance, config: Config) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const dist = config.WEB_DIST ? path.resolve(config.WEB_DIST) : path.resolve(here, "../../web/dist");
  if (!fs.existsSync(path.join(dist, "index.html"))) return;
  const assets = path.join(dist, "assets") + path.sep;
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, file) {
      res.setHeader("cache-control", file.startsWith(assets) ? "public, max-age=31536000, immutable" : "no-cache");
      res.setHeader("vary", "accept-encoding");
    },
  });
  // Whole segments: a tenant's /docs-team/login is the app's page, /docs/json is not.
  const serverPaths = [...Object.values(PREFIXES), "/api", "/docs", "/healthz", "/readyz", "/metrics", "/assets", "/mcp"];
  const indexHtml = fs.readFileSync(path.join(dist, "index.html"), "utf8");
  app.get("/*", { schema: { hide: true } }, async (req, reply) => {
    const url = req.url.split("?")[0];
    if (serverPaths.some((p) => url === p || url.startsWith(`${p}/`))) return reply.callNotFound();
    return reply.type("text/html").header("cache-control", "no-cache").send(indexHtml);
  });
}
