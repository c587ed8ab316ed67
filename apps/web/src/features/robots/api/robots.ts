import type { AgentPage, ChatRobot, RobotBindCode, RobotInput } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const chatRobotsKey = ["robots"] as const;

/** GET /aiagent_api/robots: the caller's chat robots. */
export const useChatRobots = () => useQuery({ queryKey: chatRobotsKey, queryFn: () => http.get<ChatRobot[]>(`${API.builder}/robots`) });

export const saveChatRobot = (id: string | null, body: RobotInput) =>
  id ? http.put<ChatRobot>(`${API.builder}/robots/${id}`, body) : http.post<ChatRobot>(`${API.builder}/robots`, body);

export const setChatRobotEnabled = (id: string, enabled: boolean) =>
  http.post<ChatRobot>(`${API.builder}/robots/${id}/enabled`, { enabled });

export const deleteChatRobot = (id: string) => http.delete<null>(`${API.builder}/robots/${id}`);

/** The caller's released agents a robot can answer with (My agents, released only). */
export const useReleasedAgents = () =>
  useQuery({
    queryKey: ["robots", "agents"],
    queryFn: async () => {
      const page = await http.post<AgentPage>(`${API.agent}/api/agent/page-created-by-me`, { page: 1 });
      return page.list.filter((a) => !a.agentStatus.includes("Unreleased"));
    },
  });

/** POST /aiagent_api/robots/bind-code: a one-time code to bind the caller's account in a robot chat. */
export const robotBindCode = () => http.post<RobotBindCode>(`${API.builder}/robots/bind-code`, {});
