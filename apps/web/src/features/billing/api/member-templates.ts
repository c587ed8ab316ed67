import type { PlanCategory, PlanTemplate } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const fetchMemberTemplates = (category: PlanCategory) =>
  http.get<PlanTemplate[]>(`${API.agent}/api/order/weixin/memberTemplates`, { category });
export const useMemberTemplates = (category: PlanCategory) =>
  useQuery({ queryKey: ["billing", "memberTemplates", category], queryFn: () => fetchMemberTemplates(category) });
