import { ICON_PAGE_SIZE, type IconPage } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../lib/http";

/** POST /api/files/icon: multipart upload; answers data.id. */
export const uploadIcon = (file: File) => {
  const form = new FormData();
  form.append("file", file, file.name);
  return http.post<{ id: string }>(`${API.agent}/api/files/icon`, form);
};

/** GET /api/files/icon/list: my previous uploads (pageNumber from 0). */
export const fetchIcons = (pageNumber: number, pageSize = ICON_PAGE_SIZE) =>
  http.get<IconPage>(`${API.agent}/api/files/icon/list`, { pageNumber, pageSize });

export const iconsKey = ["files", "icons"] as const;
export const useIcons = (pageNumber: number, enabled: boolean) =>
  useQuery({ queryKey: [...iconsKey, pageNumber], queryFn: () => fetchIcons(pageNumber), enabled });
