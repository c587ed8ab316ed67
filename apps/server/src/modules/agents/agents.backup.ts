import { type AgentBindings, agentDraft, emptyBindings, envelope } from "@agentfair/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import JSZip from "jszip";
import { z } from "zod";
import { type Caller, requireUser } from "../../platform/auth.ts";
import { badRequest } from "../../platform/errors.ts";
import { ok, readUploadedFile } from "../../platform/http.ts";
import { inflateWithin } from "../../platform/zip.ts";
import type { AgentsService } from "./agents.service.ts";

/** Backup and restore of agents (doc 2 §1, §5): one zip with a manifest; paths are ours. */
export const BACKUP_SCHEMA_VERSION = 1;
export const BACKUP_MAX_BYTES = 1024 * 1024;
const MAX_ENTRIES = 10;
const MAX_ENTRY_BYTES = 512 * 1024;
const MANIFEST = "manifest.json";

const manifest = z.object({
  schemaVersion: z.literal(BACKUP_SCHEMA_VERSION),
  exportedAt: z.string(),
  /** Who exported it: bindings are kept only when the same user restores it (they are that user's). */
  ownerId: z.string(),
  versionNo: z.number().int(),
  agent: agentDraft,
});
type Manifest = z.infer<typeof manifest>;

export const importResult = z.object({
  agentId: z.string(),
  agentName: z.string(),
  /** Bound tools, workflows, knowledge bases and rules the importer cannot use, by kind. */
  missing: z.record(z.string(), z.array(z.string())),
});

export async function exportAgent(agents: AgentsService, caller: Caller, id: string): Promise<{ name: string; zip: Buffer }> {
  const { snapshot, versionNo } = await agents.releasedForExport(caller, id);
  const { price: _price, ...agent } = snapshot;
  const body: Manifest = {
    schemaVersion: BACKUP_SCHEMA_VERSION,
    exportedAt: new Date().toISOString(),
    ownerId: caller.userId,
    versionNo,
    agent,
  };
  const zip = new JSZip();
  zip.file(MANIFEST, JSON.stringify(body, null, 2));
  zip.file("README.txt", "Agentfair agent backup. Import it under My agents.\n");
  return { name: `${snapshot.agentName}-v${versionNo}.zip`, zip: await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" }) };
}

/**
 * Reads an uploaded backup with every entry checked before anything is inflated past its limit:
 * the count, each path (no absolute paths, no `..`, no backslashes, no symlinks) and each size.
 */
export async function readBackup(data: Buffer): Promise<Manifest> {
  const invalid = (detail: string) => badRequest("agentImportInvalid", { detail });
  if (data.length < 4 || data.readUInt32LE(0) !== 0x04034b50) throw badRequest("agentImportZipRequired");
  let zip: JSZip;
  try {
    // No CRC check: it inflates every entry in full while loading, before any limit is checked.
    zip = await JSZip.loadAsync(data, { checkCRC32: false });
  } catch {
    throw badRequest("agentImportZipRequired");
  }
  const entries = Object.values(zip.files);
  if (entries.length > MAX_ENTRIES) throw invalid(`more than ${MAX_ENTRIES} entries`);
  for (const e of entries) {
    const name = e.name;
    if (name.startsWith("/") || name.includes("\\") || name.split("/").includes("..") || /^[A-Za-z]:/.test(name))
      throw invalid(`unsafe path ${name.slice(0, 80)}`);
    const mode = typeof e.unixPermissions === "number" ? e.unixPermissions : 0;
    if ((mode & 0o170000) === 0o120000) throw invalid(`symbolic link ${name.slice(0, 80)}`);
  }
  const file = zip.file(MANIFEST);
  if (!file) throw invalid("no manifest.json");
  const bytes = await inflateWithin(file, MAX_ENTRY_BYTES).catch(() => {
    throw invalid("manifest.json is damaged");
  });
  if (!bytes) throw invalid("manifest.json too large");
  const text = bytes.toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid("manifest.json is not JSON");
  }
  const m = manifest.safeParse(parsed);
  if (!m.success) throw invalid("manifest.json does not match the schema");
  return m.data;
}

export async function importAgent(agents: AgentsService, caller: Caller, data: Buffer) {
  const m = await readBackup(data);
  const bindings: AgentBindings = { ...emptyBindings(), ...m.agent.bindings };
  const same = m.ownerId === caller.userId;
  const missing: Record<string, string[]> = {};
  if (!same) for (const [kind, ids] of Object.entries(bindings)) if (ids.length) missing[kind] = ids;
  const draft = {
    ...m.agent,
    bindings: same ? bindings : emptyBindings(),
    labelId: same ? m.agent.labelId : null,
    designId: same ? m.agent.designId : null,
  };
  const { agentId } = await agents.createFromBackup(caller, draft);
  return { agentId, agentName: draft.agentName, missing };
}

/** GET /aiagent_api/agent/{id}/export (a zip) and POST /aiagent_api/agent/import (multipart `file`). */
export const agentBackupRoutes: FastifyPluginAsyncZod<{ agents: AgentsService }> = async (app, { agents }) => {
  app.get(
    "/agent/:id/export",
    {
      schema: {
        tags: ["agents"],
        summary: "Exports the owner's released agent as a backup zip (beyond the spec)",
        params: z.object({ id: z.string().min(1).max(64) }),
      },
    },
    async (req, reply) => {
      const { name, zip } = await exportAgent(agents, requireUser(req), req.params.id);
      return reply
        .type("application/zip")
        .header("content-disposition", `attachment; filename="agent.zip"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .send(zip);
    },
  );
  app.post(
    "/agent/import",
    {
      schema: {
        tags: ["agents"],
        summary: "Restores a backup zip as a new agent of the caller (beyond the spec)",
        response: { 200: envelope(importResult) },
      },
    },
    async (req) => {
      const caller = requireUser(req);
      const part = req.isMultipart() ? await req.file({ limits: { fileSize: BACKUP_MAX_BYTES, files: 1 } }) : undefined;
      if (!part) throw badRequest("agentImportZipRequired");
      if (!part.filename.toLowerCase().endsWith(".zip")) throw badRequest("agentImportZipRequired");
      const data = await readUploadedFile(part, () => badRequest("agentImportInvalid", { detail: "larger than 1 MB" }));
      return ok(await importAgent(agents, caller, data));
    },
  );
};
