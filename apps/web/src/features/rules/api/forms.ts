import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export interface RuleFormSource {
  name: string;
  introduction: string;
  fields: { name: string; label: string; type: string }[];
}
/** The form list by projectId: data tables a rule may read. */
export const fetchForms = (projectId: string) => http.get<RuleFormSource[]>(`${API.builder}/rule/forms`, { projectId });
export const useRuleForms = (projectId: string | undefined) =>
  useQuery({ queryKey: ["rules", "forms", projectId], queryFn: () => fetchForms(projectId as string), enabled: !!projectId });
