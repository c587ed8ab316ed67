import { envelope, fileIdResponse, ICON_MAX_BYTES, iconListRequest, iconPage } from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth.ts";
import { badRequest } from "../../platform/errors.ts";
import { ok, readUploadedFile } from "../../platform/http.ts";
import { type FilesService, safeContentType } from "./files.service.ts";

const tags = ["files"];

/** Icon upload, icon list, file serving; under /agent_api. */
export const filesRoutes: FastifyPluginAsyncZod<{ files: FilesService }> = async (app, { files }) => {
  app.post(
    "/api/files/icon",
    {
      schema: {
        tags,
        summary: "Upload an icon (png, jpeg, jpg, gif; content sniffed; 2 MB at most)",
        consumes: ["multipart/form-data"],
        response: { 200: envelope(fileIdResponse) },
      },
    },
    async (req) => {
      const caller = requireUser(req);
      if (!req.isMultipart()) throw badRequest("fileRequired");
      const part = await req.file({ limits: { fileSize: ICON_MAX_BYTES, files: 1 } });
      if (!part) throw badRequest("fileRequired");
      const data = await readUploadedFile(part, () => badRequest("fileTooLarge", { size: `${ICON_MAX_BYTES / 1024 / 1024}MB` }));
      return ok(await files.saveIcon(caller, { name: part.filename, data }));
    },
  );

  app.get(
    "/api/files/icon/list",
    {
      schema: {
        tags,
        summary: "My uploaded icons (pageNumber from 0, pageSize)",
        querystring: iconListRequest,
        response: { 200: envelope(iconPage) },
      },
    },
    async (req) => ok(await files.listIcons(requireUser(req), req.query.pageNumber, req.query.pageSize)),
  );

  app.get(
    "/api/files/data/:id",
    { schema: { tags, summary: "The bytes of a file, with a safe content type", params: z.object({ id: z.string().min(1).max(64) }) } },
    async (req, reply) => {
      const { file, stream } = await files.open(req.caller, req.params.id);
      const type = safeContentType(file.contentType);
      const disposition = type === "application/octet-stream" ? "attachment" : "inline";
      return reply
        .header("content-type", type)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("content-disposition", `${disposition}; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header("cache-control", "private, max-age=3600")
        .header("content-length", String(file.size))
        .send(stream);
    },
  );
};
