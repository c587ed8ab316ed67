import type { DurationConfig } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const fetchMonthConfigs = () => http.post<DurationConfig[]>(`${API.agent}/api/monthConfig/getList`, {});
export const useMonthConfigs = () => useQuery({ queryKey: ["billing", "monthConfig"], queryFn: fetchMonthConfigs });
