import type { SessionDetail } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export interface SharedSession {
  session: SessionDetail;
  agent: { id: string; agentName: string; agentIcon: string; agentIconBackground: string };
}
export const fetchSharedSession = (shareToken: string) => http.get<SharedSession>(`${API.runtime}/share`, { shareToken }, { silent: true });
export const useSharedSession = (shareToken: string) =>
  useQuery({ queryKey: ["chat", "share", shareToken], queryFn: () => fetchSharedSession(shareToken), enabled: !!shareToken, retry: false });
