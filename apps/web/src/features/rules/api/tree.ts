import type { RuleTreeProject } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const treeKey = ["rules", "tree"] as const;
export const fetchTree = (search?: string) => http.get<RuleTreeProject[]>(`${API.builder}/rule/tree`, { search: search || undefined });
export const useRuleTree = (search?: string) => useQuery({ queryKey: [...treeKey, search ?? ""], queryFn: () => fetchTree(search) });
