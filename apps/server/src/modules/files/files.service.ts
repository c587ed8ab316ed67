import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { fileDataPath, ICON_EXTENSIONS, ICON_MAX_BYTES, type IconPage } from "@agentfair/contracts";
import type { Db } from "../../db/client.ts";
import { type Caller, requireAccess } from "../../platform/auth.ts";
import { badRequest, notFound } from "../../platform/errors.ts";
import type { FileStore } from "../../platform/files.ts";
import type { RateLimiter } from "../../platform/rate-limit.ts";
import type { TenantsService } from "../tenants/tenants.service.ts";
import { FilesRepository, type FileRow } from "./files.repository.ts";

/** Image types recognised by their first bytes: the name and the client's type are not trusted. */
export function sniffImage(data: Buffer): "image/png" | "image/jpeg" | "image/gif" | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  const head = data.subarray(0, 6).toString("latin1");
  if (head === "GIF87a" || head === "GIF89a") return "image/gif";
  return null;
}

/** Accepted icon uploads per user and hour. */
export const ICON_UPLOADS_PER_HOUR = 60;
/** Accepted chat uploads (15 MB each) per user and hour. */
export const CHAT_UPLOADS_PER_HOUR = 60;

const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif"]);
/** Only sniffed images are served inline with their own type; everything else downloads as bytes. */
export const safeContentType = (stored: string) => (INLINE_TYPES.has(stored) ? stored : "application/octet-stream");

const extensionOf = (name: string) => (name.includes(".") ? (name.toLowerCase().split(".").pop() ?? "") : "");
/** Keeps printable characters only: no path separators or control characters in stored names. */
const cleanName = (name: string) =>
  [...name]
    .map((ch) => (ch === "/" || ch === "\\" || ch.charCodeAt(0) < 0x20 ? "_" : ch))
    .join("")
    .slice(-120) || "file";

export class FilesService {
  private readonly repo: FilesRepository;
  private defaultTenantId: string | undefined;

  constructor(
    db: Db,
    readonly store: FileStore,
    private readonly tenants: TenantsService,
    private readonly limiter?: RateLimiter,
  ) {
    this.repo = new FilesRepository(db);
  }

  /** Stores bytes for the caller; the id and storage key are the server's. */
  async saveFile(caller: Caller, file: { kind: string; name: string; contentType: string; data: Buffer }): Promise<FileRow> {
    const id = randomUUID();
    const storageKey = `${file.kind}/${id.slice(0, 2)}/${id}`;
    await this.store.put(storageKey, file.data, { contentType: file.contentType });
    return this.repo.insert({
      id,
      tenantId: caller.tenantId,
      ownerId: caller.userId,
      kind: file.kind,
      name: cleanName(file.name),
      contentType: file.contentType,
      size: file.data.length,
      storageKey,
    });
  }

  /** The bytes of a stored file, for server-side processing (the caller's module checked access). */
  async readStored(id: string): Promise<Buffer> {
    const file = await this.repo.byId(id);
    if (!file) throw notFound();
    const chunks: Buffer[] = [];
    for await (const chunk of await this.store.get(file.storageKey)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** Removes a stored file and its bytes (the owning module checked access). */
  async deleteStored(id: string) {
    const file = await this.repo.byId(id);
    if (!file) return;
    await this.repo.delete(id);
    await this.store.delete(file.storageKey);
  }

  /** Icon upload (doc 2 §5): png, jpeg, jpg, gif by name and by content, size-limited. */
  async saveIcon(caller: Caller, file: { name: string; data: Buffer }) {
    if (!(ICON_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) throw badRequest("fileFormatNotSupported");
    if (file.data.length > ICON_MAX_BYTES) throw badRequest("fileTooLarge", { size: `${ICON_MAX_BYTES / 1024 / 1024}MB` });
    const type = sniffImage(file.data);
    if (!type) throw badRequest("fileFormatNotSupported");
    // Uploads fill the disk: a per-user hourly budget, counted only for accepted files.
    await this.limiter?.take(`icon-upload:${caller.userId}`, ICON_UPLOADS_PER_HOUR, 3600);
    const row = await this.saveFile(caller, { kind: "icon", name: file.name, contentType: type, data: file.data });
    return { id: row.id };
  }

  /** A chat attachment, checked by the caller; counted against the hourly upload budget. */
  async saveChatFile(caller: Caller, file: { name: string; contentType: string; data: Buffer }): Promise<FileRow> {
    await this.limiter?.take(`chat-upload:${caller.userId}`, CHAT_UPLOADS_PER_HOUR, 3600);
    return this.saveFile(caller, { kind: "chat", ...file });
  }

  async listIcons(caller: Caller, pageNumber: number, pageSize: number): Promise<IconPage> {
    const { list, total } = await this.repo.page(caller.userId, "icon", pageNumber, pageSize);
    return {
      content: list.map((f) => ({ id: f.id, name: f.name, url: fileDataPath(f.id), createdAt: f.createdAt.toISOString() })),
      totalElements: total,
      totalPages: Math.ceil(total / pageSize),
    };
  }

  /**
   * Icons are shown wherever their agent is: the public platform's to everyone, a tenant's to
   * that tenant's users. Other files (chat uploads) only to their owner. Administrators see all.
   */
  async open(caller: Caller | null, id: string): Promise<{ file: FileRow; stream: Readable }> {
    const file = await this.repo.byId(id);
    this.defaultTenantId ??= (await this.tenants.defaultTenant()).id;
    const icon = file?.kind === "icon";
    requireAccess(
      caller,
      file && {
        ownerId: file.ownerId,
        tenantId: file.tenantId,
        sharedWithTenant: icon,
        public: icon && file.tenantId === this.defaultTenantId,
      },
      "read",
    );
    return { file: file!, stream: await this.store.get(file!.storageKey) };
  }
}
