import type { RechargeOption } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const fetchRechargeTemplates = () => http.get<RechargeOption[]>(`${API.agent}/api/order/recharge/templates`);
export const useRechargeTemplates = (enabled = true) =>
  useQuery({ queryKey: ["billing", "rechargeTemplates"], queryFn: fetchRechargeTemplates, enabled });
