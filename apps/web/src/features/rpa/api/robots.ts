import type { RpaRobot, RpaRobotInput } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const robotsKey = ["rpa", "robots"] as const;
export const useRobots = () => useQuery({ queryKey: robotsKey, queryFn: () => http.get<RpaRobot[]>(`${API.agent}/api/rpa/robots`) });
export const saveRobot = (id: string | null, body: RpaRobotInput) =>
  id ? http.put<RpaRobot>(`${API.agent}/api/rpa/robots/${id}`, body) : http.post<RpaRobot>(`${API.agent}/api/rpa/robots`, body);
export const deleteRobot = (id: string) => http.delete<null>(`${API.agent}/api/rpa/robots/${id}`);
