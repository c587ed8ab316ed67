import type { VersionDetail } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /aiagent_api/agent/version/{id}/{versionNo}: one released version in full. */
export const fetchVersion = (id: string, versionNo: number) => http.get<VersionDetail>(`${API.builder}/agent/version/${id}/${versionNo}`);
export const useVersion = (id: string | null, versionNo: number | undefined) =>
  useQuery({ queryKey: ["agents", "version", id, versionNo], queryFn: () => fetchVersion(id!, versionNo!), enabled: !!id && !!versionNo });
