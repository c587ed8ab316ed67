import type { knowledgeFolder } from "@agentfair/contracts";
import type { z } from "zod";
import { API, http } from "../../../lib/http";

const url = (baseId: string) => `${API.knowledge}/wendao/knowledge/${baseId}`;

/** POST …/{id}/folders: a folder (name not empty, no slash; unique in the base). */
export const createFolder = (baseId: string, name: string) =>
  http.post<z.infer<typeof knowledgeFolder>>(`${url(baseId)}/folders`, { name });

/** PUT …/{id}/folders/{folderId}: rename. */
export const renameFolder = (baseId: string, folderId: string, name: string) =>
  http.put<null>(`${url(baseId)}/folders/${folderId}`, { name });

/** DELETE …/{id}/folders/{folderId}: its files move to the top level. */
export const deleteFolder = (baseId: string, folderId: string) => http.delete<null>(`${url(baseId)}/folders/${folderId}`);

/** PUT …/{id}/files/{fileId}: move a file into a folder (null: the top level). */
export const moveFile = (baseId: string, fileId: string, folderId: string | null) =>
  http.put<null>(`${url(baseId)}/files/${fileId}`, { folderId });
