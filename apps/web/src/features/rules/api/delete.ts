import { API, http } from "../../../lib/http";

export const deleteRule = (id: string) => http.delete<null>(`${API.builder}/rule/${id}`);
export const deleteDir = (id: string) => http.delete<null>(`${API.builder}/rule/dir/${id}`);
export const deleteProject = (id: string) => http.delete<null>(`${API.builder}/rule/project/${id}`);
