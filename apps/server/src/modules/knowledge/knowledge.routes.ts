import {
  envelope,
  fileMoveRequest,
  folderRequest,
  KNOWLEDGE_FILE_MAX_BYTES,
  knowledgeBase,
  knowledgeContents,
  knowledgeCreateRequest,
  knowledgeDeleteRequest,
  knowledgeFile,
  knowledgeFolder,
  knowledgePage,
  knowledgePageQuery,
  knowledgeSpaceUsage,
  knowledgeUpdateRequest,
  previewResult,
  qaPairRequest,
  retrievalRequest,
  retrievalResult,
  segment,
  segmentCreateRequest,
  segmentOptions,
  segmentPage,
  segmentPageQuery,
  segmentUpdateRequest,
  uploadResult,
} from "@agentfair/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { badRequest, tokenInvalid } from "../../platform/errors.ts";
import { readUploadedFile } from "../../platform/http.ts";
import { type MessageKey, requestLanguage, translate } from "../../platform/messages.ts";
import type { KnowledgeService } from "./knowledge.service.ts";

const tags = ["knowledge"];
const SIZE_LABEL = `${KNOWLEDGE_FILE_MAX_BYTES / 1024 / 1024}MB`;

/** The knowledge service's envelope: code 0 is success (doc 2 §7). */
const ok0 = <T>(req: FastifyRequest, data: T, key: MessageKey = "ok") => ({
  code: 0,
  msg: translate(key, requestLanguage(req.headers)),
  data,
});
const done = envelope(z.null());
const idParam = z.object({ id: z.string().min(1).max(64) });
const fileParams = idParam.extend({ fileId: z.string().min(1).max(64) });
const folderParams = idParam.extend({ folderId: z.string().min(1).max(64) });
const segmentParams = idParam.extend({ segmentId: z.string().min(1).max(64) });

/** The single uploaded file of a multipart request (field `file`), or null when none was sent. */
async function uploadedFile(req: FastifyRequest): Promise<{ name: string; data: Buffer } | null> {
  if (!req.caller) throw tokenInvalid();
  if (!req.isMultipart()) return null;
  const part = await req.file({ limits: { fileSize: KNOWLEDGE_FILE_MAX_BYTES, files: 1 } });
  if (!part) return null;
  return { name: part.filename, data: await readUploadedFile(part, () => badRequest("fileTooLarge", { size: SIZE_LABEL })) };
}

/** Knowledge bases and everything inside them; under /wendao_api. */
export const knowledgeRoutes: FastifyPluginAsyncZod<{ knowledge: KnowledgeService }> = async (app, { knowledge }) => {
  const base = "/wendao/knowledge";

  app.get(
    `${base}/page`,
    {
      schema: {
        tags,
        summary: "Knowledge bases: administrators see all, others their own (createdByMe narrows to one's own); signed out: empty",
        querystring: knowledgePageQuery,
        response: { 200: envelope(knowledgePage) },
      },
    },
    async (req) => ok0(req, await knowledge.page(req.caller, req.query)),
  );

  app.get(
    `${base}/space`,
    {
      schema: {
        tags,
        summary: "The caller's knowledge space: bytes kept in their bases (files and Q&A text) and their plan's limit (null: none)",
        response: { 200: envelope(knowledgeSpaceUsage) },
      },
    },
    async (req) => ok0(req, await knowledge.space(req.caller)),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: "Create a knowledge base (name required)",
        body: knowledgeCreateRequest,
        response: { 200: envelope(knowledgeBase) },
      },
    },
    async (req) => ok0(req, await knowledge.create(req.caller, req.body), "knowledgeCreated"),
  );

  app.put(
    base,
    {
      schema: {
        tags,
        summary: "Edit a knowledge base; a new embedding model re-embeds its segments without re-parsing",
        body: knowledgeUpdateRequest,
        response: { 200: envelope(knowledgeBase) },
      },
    },
    async (req) => ok0(req, await knowledge.update(req.caller, req.body), "knowledgeSaved"),
  );

  app.delete(
    base,
    { schema: { tags, summary: "Delete knowledge bases (a list of ids)", body: knowledgeDeleteRequest, response: { 200: done } } },
    async (req) => {
      await knowledge.remove(req.caller, Array.isArray(req.body) ? req.body : req.body.ids);
      return ok0(req, null, "knowledgeDeleted");
    },
  );

  app.get(
    `${base}/:id`,
    { schema: { tags, summary: "One knowledge base", params: idParam, response: { 200: envelope(knowledgeBase) } } },
    async (req) => ok0(req, await knowledge.get(req.caller, req.params.id)),
  );

  app.get(
    `${base}/:id/contents`,
    {
      schema: {
        tags,
        summary: "Folders and files of a base, with each file's state and progress",
        params: idParam,
        response: { 200: envelope(knowledgeContents) },
      },
    },
    async (req) => ok0(req, await knowledge.contents(req.caller, req.params.id, requestLanguage(req.headers))),
  );

  // ---- folders ----
  app.post(
    `${base}/:id/folders`,
    {
      schema: {
        tags,
        summary: "Create a folder (name not empty, no slash)",
        params: idParam,
        body: folderRequest,
        response: { 200: envelope(knowledgeFolder) },
      },
    },
    async (req) => ok0(req, await knowledge.createFolder(req.caller, req.params.id, req.body.name), "knowledgeCreated"),
  );
  app.put(
    `${base}/:id/folders/:folderId`,
    { schema: { tags, summary: "Rename a folder", params: folderParams, body: folderRequest, response: { 200: done } } },
    async (req) => {
      await knowledge.renameFolder(req.caller, req.params.id, req.params.folderId, req.body.name);
      return ok0(req, null, "knowledgeSaved");
    },
  );
  app.delete(
    `${base}/:id/folders/:folderId`,
    { schema: { tags, summary: "Delete a folder (its files move to the top level)", params: folderParams, response: { 200: done } } },
    async (req) => {
      await knowledge.deleteFolder(req.caller, req.params.id, req.params.folderId);
      return ok0(req, null, "knowledgeDeleted");
    },
  );

  // ---- files ----
  app.post(
    `${base}/:id/files`,
    {
      schema: {
        tags,
        summary: "Upload a document (multipart field `file`, 15 MB; pdf, docx, xlsx, csv, pptx, txt, md, html, png, jpg) or a zip of them",
        consumes: ["multipart/form-data"],
        params: idParam,
        querystring: z.object({ folderId: z.string().min(1).max(64).optional() }),
        response: { 200: envelope(uploadResult) },
      },
    },
    async (req) => {
      const file = await uploadedFile(req);
      if (!file) throw badRequest("fileRequired");
      return ok0(req, await knowledge.upload(req.caller, req.params.id, file, req.query.folderId));
    },
  );
  app.get(
    `${base}/:id/files/:fileId`,
    { schema: { tags, summary: "A file's state, progress and error", params: fileParams, response: { 200: envelope(knowledgeFile) } } },
    async (req) => ok0(req, await knowledge.file(req.caller, req.params.id, req.params.fileId, requestLanguage(req.headers))),
  );
  app.put(
    `${base}/:id/files/:fileId`,
    {
      schema: {
        tags,
        summary: "Move a file into a folder of the base (folderId null: the top level)",
        params: fileParams,
        body: fileMoveRequest,
        response: { 200: done },
      },
    },
    async (req) => {
      await knowledge.moveFile(req.caller, req.params.id, req.params.fileId, req.body.folderId);
      return ok0(req, null, "knowledgeSaved");
    },
  );
  app.delete(
    `${base}/:id/files/:fileId`,
    { schema: { tags, summary: "Delete a file with its segments and vectors", params: fileParams, response: { 200: done } } },
    async (req) => {
      await knowledge.deleteFile(req.caller, req.params.id, req.params.fileId);
      return ok0(req, null, "knowledgeDeleted");
    },
  );
  app.post(
    `${base}/:id/files/:fileId/preview`,
    {
      schema: {
        tags,
        summary: "The segments a commit with the same options stores (same code path, same ids)",
        params: fileParams,
        body: segmentOptions,
        response: { 200: envelope(previewResult) },
      },
    },
    async (req) => ok0(req, await knowledge.preview(req.caller, req.params.id, req.params.fileId, req.body)),
  );
  app.post(
    `${base}/:id/files/:fileId/commit`,
    {
      schema: {
        tags,
        summary: "Segment, index and embed the file with these options (a background job)",
        params: fileParams,
        body: segmentOptions,
        response: { 200: envelope(z.object({ fileId: z.string(), state: z.string(), progress: z.number() })) },
      },
    },
    async (req) => ok0(req, await knowledge.commit(req.caller, req.params.id, req.params.fileId, req.body)),
  );

  // ---- segments ----
  app.get(
    `${base}/:id/segments`,
    {
      schema: {
        tags,
        summary: "Segments of a base or one file",
        params: idParam,
        querystring: segmentPageQuery,
        response: { 200: envelope(segmentPage) },
      },
    },
    async (req) => ok0(req, await knowledge.segments(req.caller, req.params.id, req.query)),
  );
  app.post(
    `${base}/:id/segments`,
    {
      schema: { tags, summary: "Add a segment by hand", params: idParam, body: segmentCreateRequest, response: { 200: envelope(segment) } },
    },
    async (req) => ok0(req, await knowledge.addSegment(req.caller, req.params.id, req.body), "knowledgeCreated"),
  );
  app.put(
    `${base}/:id/segments/:segmentId`,
    {
      schema: {
        tags,
        summary: "Edit a segment (marked edited and kept on re-parse) or enable/disable it",
        params: segmentParams,
        body: segmentUpdateRequest,
        response: { 200: envelope(segment) },
      },
    },
    async (req) => ok0(req, await knowledge.updateSegment(req.caller, req.params.id, req.params.segmentId, req.body), "knowledgeSaved"),
  );
  app.delete(
    `${base}/:id/segments/:segmentId`,
    { schema: { tags, summary: "Delete a segment", params: segmentParams, response: { 200: done } } },
    async (req) => {
      await knowledge.deleteSegment(req.caller, req.params.id, req.params.segmentId);
      return ok0(req, null, "knowledgeDeleted");
    },
  );

  // ---- Q&A pairs ----
  app.post(
    `${base}/:id/qa`,
    {
      schema: {
        tags,
        summary: "Add a Q&A pair (question and answer not empty)",
        params: idParam,
        body: qaPairRequest,
        response: { 200: envelope(segment) },
      },
    },
    async (req) => ok0(req, await knowledge.addQaPair(req.caller, req.params.id, req.body), "knowledgeCreated"),
  );
  app.put(
    `${base}/:id/qa/:segmentId`,
    {
      schema: {
        tags,
        summary: "Edit a Q&A pair (question and answer not empty)",
        params: segmentParams,
        body: qaPairRequest,
        response: { 200: envelope(segment) },
      },
    },
    async (req) => ok0(req, await knowledge.updateQaPair(req.caller, req.params.id, req.params.segmentId, req.body), "knowledgeSaved"),
  );
  app.post(
    `${base}/:id/qa/import`,
    {
      schema: {
        tags,
        summary: "Import Q&A pairs from a CSV file (multipart field `file`; two columns: question, answer)",
        consumes: ["multipart/form-data"],
        params: idParam,
        response: { 200: envelope(z.object({ imported: z.number() })) },
      },
    },
    async (req) => ok0(req, await knowledge.importQaCsv(req.caller, req.params.id, await uploadedFile(req))),
  );

  // ---- retrieval ----
  app.post(
    `${base}/:id/retrieval`,
    {
      schema: {
        tags,
        summary: "Hybrid retrieval test: each hit with its keyword, vector and fused scores, best first",
        params: idParam,
        body: retrievalRequest,
        response: { 200: envelope(retrievalResult) },
      },
    },
    async (req) => ok0(req, await knowledge.retrieval(req.caller, req.params.id, req.body)),
  );
};
