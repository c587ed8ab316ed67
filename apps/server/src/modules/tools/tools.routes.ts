import {
  callableNameRequest,
  curlImportRequest,
  envelope,
  mcpServerRequest,
  openApiParseRequest,
  openApiParseResult,
  openApiSaveRequest,
  plugin,
  pluginInput,
  pluginPage,
  pluginPageRequest,
  pluginTestRequest,
  pluginTestResult,
} from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { ok } from "../../platform/http.ts";
import { requestLanguage, translate } from "../../platform/messages.ts";
import type { ToolsService } from "./tools.service.ts";

const tags = ["tools"];
const idParams = z.object({ id: z.string().min(1).max(64) });

/** Tools under /aiagent_api (doc 2 §7 "Tools"). */
export const toolsRoutes: FastifyPluginAsyncZod<{ tools: ToolsService }> = async (app, { tools }) => {
  app.post(
    "/plugin/page",
    {
      schema: {
        tags,
        summary:
          "List tools: filters by name, type (0 all, 1 plugins, 2 workflows, 3 MCP), status (1 unpublished, 2 published), time range; page size 20",
        body: pluginPageRequest,
        response: { 200: envelope(pluginPage) },
      },
    },
    async (req) => ok(await tools.page(req.caller, req.body)),
  );
  app.get(
    "/plugin/groups",
    { schema: { tags, summary: "Groups to choose from (data is a list of names)", response: { 200: envelope(z.array(z.string())) } } },
    async (req) => ok(await tools.groups(req.caller)),
  );
  app.post(
    "/plugin/callable-name",
    {
      schema: {
        tags,
        summary: "Generate a callable name from the plugin name and description (data is the name)",
        body: callableNameRequest,
        response: { 200: envelope(z.string()) },
      },
    },
    async (req) => ok(await tools.callableName(requireUser(req), req.body.pluginName, req.body.pluginDescription)),
  );
  app.post(
    "/plugin/openapi/parse",
    {
      schema: {
        tags,
        summary: "Parse an OpenAPI 3.0/3.1 or Swagger 2 document (URL or pasted JSON/YAML) into one plugin per operation",
        body: openApiParseRequest,
        response: { 200: envelope(openApiParseResult) },
      },
    },
    async (req) => {
      requireUser(req);
      return ok({ plugins: await tools.parseOpenApi(req.body.openApiSchemaOrUrl, req.body.baseUrl) });
    },
  );
  app.post(
    "/plugin/curl/parse",
    {
      schema: {
        tags,
        summary: "Parse a cURL command line into a plugin",
        body: curlImportRequest,
        response: { 200: envelope(openApiParseResult) },
      },
    },
    async (req) => {
      requireUser(req);
      return ok({ plugins: tools.parseCurl(req.body.curl) });
    },
  );
  app.post(
    "/plugin/openapi/save",
    {
      schema: {
        tags,
        summary: "Save imported plugins with a tag (unpublished)",
        body: openApiSaveRequest,
        response: { 200: envelope(z.object({ ids: z.array(z.string()) })) },
      },
    },
    async (req) => {
      const ids = await tools.saveImported(requireUser(req), req.body.plugins, req.body.tag);
      return ok({ ids }, translate("pluginSaved", requestLanguage(req.headers)));
    },
  );
  app.post(
    "/plugin/mcp",
    {
      schema: {
        tags,
        summary: "Add an MCP server: connects (streamable HTTP, else SSE) and makes one MCP plugin per listed tool",
        body: mcpServerRequest,
        response: { 200: envelope(z.object({ ids: z.array(z.string()) })) },
      },
    },
    async (req) =>
      ok({ ids: await tools.addMcpServer(requireUser(req), req.body) }, translate("pluginCreated", requestLanguage(req.headers))),
  );
  app.post(
    "/plugin",
    {
      schema: {
        tags,
        summary: "Create a plugin (HTTP, JAVASCRIPT, PYTHON3 or MCP)",
        body: pluginInput,
        response: { 200: envelope(z.object({ id: z.string() })) },
      },
    },
    async (req) => ok(await tools.create(requireUser(req), req.body), translate("pluginCreated", requestLanguage(req.headers))),
  );
  app.get(
    "/plugin/:id",
    { schema: { tags, summary: "A plugin (its credential is never returned)", params: idParams, response: { 200: envelope(plugin) } } },
    async (req) => ok(await tools.get(requireUser(req), req.params.id)),
  );
  app.put(
    "/plugin/:id",
    {
      schema: {
        tags,
        summary: "Update a plugin (administrators or its creator; never MCP or built-in plugins). An empty authSecret keeps the stored one",
        params: idParams,
        body: pluginInput,
        response: { 200: envelope(plugin) },
      },
    },
    async (req) => ok(await tools.update(requireUser(req), req.params.id, req.body)),
  );
  app.delete(
    "/plugin/:id",
    { schema: { tags, summary: "Delete a tool", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await tools.remove(requireUser(req), req.params.id);
      return ok(null, translate("pluginDeleted", requestLanguage(req.headers)));
    },
  );
  app.post(
    "/plugin/:id/test",
    {
      schema: {
        tags,
        summary: "Test-run the plugin with params; a passed test of the current definition unlocks publishing",
        params: idParams,
        body: pluginTestRequest,
        response: { 200: envelope(pluginTestResult) },
      },
    },
    async (req) => ok(await tools.test(requireUser(req), req.params.id, req.body.params)),
  );
  app.post(
    "/plugin/:id/publish",
    {
      schema: {
        tags,
        summary: "Publish (C90_Released) after a passed test of the current definition",
        params: idParams,
        response: { 200: envelope(plugin) },
      },
    },
    async (req) => ok(await tools.publish(requireUser(req), req.params.id)),
  );
};
