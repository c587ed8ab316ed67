import { API, http } from "../../../lib/http";

type FieldConfig = { key: string; label: string }[];
export const saveProject = (id: string | null, body: { name: string; description?: string; fieldConfig: FieldConfig }) =>
  id ? http.put<null>(`${API.builder}/rule/project`, { ...body, id }) : http.post<{ id: string }>(`${API.builder}/rule/project`, body);
export const saveDir = (id: string | null, body: { projectId: string; name: string }) =>
  id ? http.put<null>(`${API.builder}/rule/dir`, { id, name: body.name }) : http.post<{ id: string }>(`${API.builder}/rule/dir`, body);
