import type { ChatAgentInfo } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const agentInfoKey = (id: string, release: boolean) => ["chat", "agentInfo", id, release] as const;
export const fetchAgentInfo = (id: string, release: boolean) =>
  http.get<ChatAgentInfo>(`${API.runtime}/agent_info`, { id, release: String(release) }, { silent: true });
export const useAgentInfo = (id: string, release = true, enabled = true) =>
  useQuery({ queryKey: agentInfoKey(id, release), queryFn: () => fetchAgentInfo(id, release), enabled: !!id && enabled, retry: false });
