import type { RuleFunction } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** The rule function list, from the server's evaluator. */
export const fetchFunctions = () => http.get<RuleFunction[]>(`${API.builder}/rule/functions`);
export const useRuleFunctions = (lang: string) =>
  useQuery({ queryKey: ["rules", "functions", lang], queryFn: fetchFunctions, staleTime: Infinity });
