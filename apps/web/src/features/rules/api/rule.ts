import type { Rule } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const ruleKey = (id: string) => ["rules", "rule", id] as const;
/** Get a rule by id (doc 2 §7). */
export const fetchRule = (id: string) => http.get<Rule>(`${API.builder}/rule/${id}`);
export const useRule = (id: string | null) =>
  useQuery({ queryKey: ruleKey(id ?? ""), queryFn: () => fetchRule(id as string), enabled: !!id });
