import type { Design, DesignInput, DesignPage } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

const base = `${API.builder}/designer`;

/** GET /aiagent_api/designer/page: the caller's designs. */
export const fetchDesigns = (q: { page: number; limit: number; name?: string }) => http.get<DesignPage>(`${base}/page`, q);
export const designsKey = ["designer", "page"] as const;
export const useDesigns = (q: { page: number; limit: number; name?: string }) =>
  useQuery({ queryKey: [...designsKey, q], queryFn: () => fetchDesigns(q), placeholderData: keepPreviousData });

/** GET /aiagent_api/designer/{id}. */
export const fetchDesign = (id: string) => http.get<Design>(`${base}/${id}`);
export const designKey = (id: string) => ["designer", "design", id] as const;
export const useDesign = (id: string) => useQuery({ queryKey: designKey(id), queryFn: () => fetchDesign(id), enabled: !!id });

/** POST /aiagent_api/designer. */
export const createDesign = (input: DesignInput) => http.post<Design>(base, input);
/** PUT /aiagent_api/designer/{id}. */
export const updateDesign = (id: string, input: DesignInput) => http.put<Design>(`${base}/${id}`, input);
/** DELETE /aiagent_api/designer/{id}. */
export const deleteDesign = (id: string) => http.delete<null>(`${base}/${id}`);

/** PUT /aiagent_api/designer/{id}/plugins: the tools whose results show this design in chat replies. */
export const bindDesign = (id: string, pluginIds: string[]) => http.put<Design>(`${base}/${id}/plugins`, { pluginIds });
