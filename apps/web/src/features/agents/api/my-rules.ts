import type { RuleTreeProject } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /aiagent_api/rule/tree: the rule projects, directories and rules the studio may bind. */
export const fetchMyRules = () => http.get<RuleTreeProject[]>(`${API.builder}/rule/tree`, undefined, { silent: true });
export const useMyRules = () => useQuery({ queryKey: ["agents", "bindable", "rules"], queryFn: fetchMyRules, staleTime: 30_000 });
