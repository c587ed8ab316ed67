import { CHAT_FILE_MAX_BYTES, CHAT_UPLOAD_EXTENSIONS, type ChatFileRef, envelope, fileDataPath, uploadedFile } from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type Caller, requireUser } from "../../platform/auth.ts";
import { badRequest, notFound } from "../../platform/errors.ts";
import { ok, readUploadedFile } from "../../platform/http.ts";
import { extensionOf, sniffType, toAttachment } from "../../runtime/extract.ts";
import type { Attachment } from "../../runtime/prompt.ts";
import type { FilesService } from "./files.service.ts";

/**
 * Chat uploads (doc 2 §5): the listed types only, checked by name and by content, 15 MB at most.
 * Owned by the uploader: another user's file id is not found.
 */
export const chatUploadRoutes: FastifyPluginAsyncZod<{ files: FilesService }> = async (app, { files }) => {
  app.post(
    "/api/files",
    {
      schema: {
        tags: ["files"],
        summary: "Upload a chat attachment (jpeg, jpg, png, doc, docx, xls, xlsx, pdf, ppt, pptx, txt, mp3, wav, zip; 15 MB)",
        consumes: ["multipart/form-data"],
        querystring: z.object({ presignedUrl: z.enum(["true", "false"]).optional() }),
        response: { 200: envelope(uploadedFile) },
      },
    },
    async (req) => {
      const caller = requireUser(req);
      if (!req.isMultipart()) throw badRequest("chatUploadType");
      const part = await req.file({ limits: { fileSize: CHAT_FILE_MAX_BYTES, files: 1 } });
      if (!part) throw badRequest("chatUploadType");
      if (!(CHAT_UPLOAD_EXTENSIONS as readonly string[]).includes(extensionOf(part.filename))) {
        part.file.resume();
        throw badRequest("chatUploadType");
      }
      const data = await readUploadedFile(part, () => badRequest("chatUploadTooLarge"));
      const type = sniffType(data, part.filename);
      if (!type) throw badRequest("chatUploadType");
      const row = await files.saveChatFile(caller, { name: part.filename, contentType: type, data });
      const direct =
        req.query.presignedUrl === "true"
          ? await files.store.presignedUrl(row.storageKey, { method: "GET", expiresInSeconds: 3600 })
          : null;
      return ok({ id: row.id, name: row.name, presignedUrl: direct ?? fileDataPath(row.id), type });
    },
  );
};

/** The chat runtime's attachment source: the caller's own chat uploads, as prompt attachments. */
export function chatAttachments(files: FilesService) {
  return {
    async load(caller: Caller, refs: ChatFileRef[]): Promise<Attachment[]> {
      const out: Attachment[] = [];
      for (const ref of refs) {
        let opened: Awaited<ReturnType<FilesService["open"]>>;
        try {
          opened = await files.open(caller, ref.id);
        } catch {
          throw notFound();
        }
        const { file, stream } = opened;
        if (file.kind !== "chat" || file.ownerId !== caller.userId) {
          stream.destroy();
          throw notFound();
        }
        const chunks: Buffer[] = [];
        for await (const c of stream) chunks.push(c as Buffer);
        out.push(await toAttachment({ name: file.name, contentType: file.contentType, data: new Uint8Array(Buffer.concat(chunks)) }));
      }
      return out;
    },
  };
}
