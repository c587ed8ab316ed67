import type { AgentDetail } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /api/agent/detail/{id}: what a hirer should know before starting. */
export const fetchAgentDetail = (id: string) => http.get<AgentDetail>(`${API.agent}/api/agent/detail/${id}`);
export const useAgentDetail = (id: string | null) =>
  useQuery({ queryKey: ["agents", "detail", id], queryFn: () => fetchAgentDetail(id!), enabled: !!id, retry: false });
