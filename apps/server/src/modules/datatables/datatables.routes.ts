import {
  dataImportResult,
  dataQueryRequest,
  dataQueryResult,
  dataRowValues,
  dataRowsPage,
  dataRowsPageRequest,
  dataTable,
  dataTableInput,
  dataTablePage,
  dataTablePageRequest,
  dataTableUpdate,
  envelope,
} from "@agentfair/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { badRequest } from "../../platform/errors.ts";
import { ok, readUploadedFile } from "../../platform/http.ts";
import { requestLanguage, translate } from "../../platform/messages.ts";
import type { DatatablesService } from "./datatables.service.ts";

const tags = ["datatables"];
const idParams = z.object({ id: z.string().min(1).max(64) });
const rowParams = z.object({ id: z.string().min(1).max(64), rowId: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const IMPORT_MAX_BYTES = 15 * 1024 * 1024;

async function uploadedFile(req: FastifyRequest): Promise<{ name: string; data: Buffer } | null> {
  if (!req.isMultipart()) return null;
  const part = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
  if (!part) return null;
  return { name: part.filename, data: await readUploadedFile(part, () => badRequest("fileTooLarge", { size: "15MB" })) };
}

/** Data tables under /aiagent_api/datatable (paths beyond the spec, which names the area only). */
export const datatablesRoutes: FastifyPluginAsyncZod<{ datatables: DatatablesService }> = async (app, { datatables }) => {
  app.post(
    "/datatable/page",
    {
      schema: {
        tags,
        summary: "The caller's data tables (page from 1, size 20)",
        body: dataTablePageRequest,
        response: { 200: envelope(dataTablePage) },
      },
    },
    async (req) => ok(await datatables.page(requireUser(req), req.body)),
  );
  app.post(
    "/datatable/query",
    {
      schema: {
        tags,
        summary:
          "Run one read-only SELECT over the caller's tenant's data tables (by their names): refused for anything else; READ ONLY transaction, statement timeout, planner cost limit, at most 1000 rows",
        body: dataQueryRequest,
        response: { 200: envelope(dataQueryResult) },
      },
    },
    async (req) => ok(await datatables.query(requireUser(req), req.body.sql)),
  );
  app.post(
    "/datatable",
    {
      schema: { tags, summary: "Create a data table and its physical table", body: dataTableInput, response: { 200: envelope(dataTable) } },
    },
    async (req) => ok(await datatables.create(requireUser(req), req.body), translate("knowledgeCreated", requestLanguage(req.headers))),
  );
  app.put(
    "/datatable",
    {
      schema: {
        tags,
        summary: "Change a data table: fields added, removed or retyped alter its physical table in the same transaction",
        body: dataTableUpdate,
        response: { 200: envelope(dataTable) },
      },
    },
    async (req) => ok(await datatables.update(requireUser(req), req.body), translate("knowledgeSaved", requestLanguage(req.headers))),
  );
  app.get(
    "/datatable/:id",
    { schema: { tags, summary: "One data table", params: idParams, response: { 200: envelope(dataTable) } } },
    async (req) => ok(await datatables.get(requireUser(req), req.params.id)),
  );
  app.delete(
    "/datatable/:id",
    { schema: { tags, summary: "Delete a data table and its rows", params: idParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await datatables.remove(requireUser(req), req.params.id);
      return ok(null, translate("deleteSuccess", requestLanguage(req.headers)));
    },
  );
  app.post(
    "/datatable/:id/rows/page",
    {
      schema: {
        tags,
        summary: "Browse rows, newest first",
        params: idParams,
        body: dataRowsPageRequest,
        response: { 200: envelope(dataRowsPage) },
      },
    },
    async (req) => ok(await datatables.rows(requireUser(req), req.params.id, req.body.pageNumber, req.body.pageSize)),
  );
  app.post(
    "/datatable/:id/rows",
    {
      schema: {
        tags,
        summary: "Add a row (values by storage field name)",
        params: idParams,
        body: dataRowValues,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await datatables.addRow(requireUser(req), req.params.id, req.body, requestLanguage(req.headers));
      return ok(null, translate("knowledgeSaved", requestLanguage(req.headers)));
    },
  );
  app.put(
    "/datatable/:id/rows/:rowId",
    { schema: { tags, summary: "Change a row's values", params: rowParams, body: dataRowValues, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await datatables.updateRow(requireUser(req), req.params.id, req.params.rowId, req.body, requestLanguage(req.headers));
      return ok(null, translate("knowledgeSaved", requestLanguage(req.headers)));
    },
  );
  app.delete(
    "/datatable/:id/rows/:rowId",
    { schema: { tags, summary: "Delete a row", params: rowParams, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await datatables.deleteRow(requireUser(req), req.params.id, req.params.rowId);
      return ok(null, translate("deleteSuccess", requestLanguage(req.headers)));
    },
  );
  app.post(
    "/datatable/:id/import",
    {
      schema: {
        tags,
        summary:
          "Import rows from an xlsx or csv file (multipart field `file`, 15 MB, 10000 rows; first row: storage field names or display names). Good rows are added; the rest come back with their line and reason",
        consumes: ["multipart/form-data"],
        params: idParams,
        response: { 200: envelope(dataImportResult) },
      },
    },
    async (req) => {
      const caller = requireUser(req);
      const lang = requestLanguage(req.headers);
      const result = await datatables.importFile(caller, req.params.id, await uploadedFile(req), lang);
      return ok(result, translate("dataImported", lang, { imported: result.imported, rejected: result.rejected.length }));
    },
  );
};
