import type { UploadedFile } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** POST /agent_api/api/files?presignedUrl=true (bearer header). */
export function uploadChatFile(file: File) {
  const form = new FormData();
  form.append("file", file, file.name);
  return http.post<UploadedFile>(`${API.agent}/api/files?presignedUrl=true`, form, { keepOnNavigate: true });
}
