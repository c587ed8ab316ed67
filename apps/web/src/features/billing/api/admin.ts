import type { AdminPlanTemplate, DurationConfig, Order, RechargeOption } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** Administrator calls of the billing screens. */
const base = `${API.agent}/api/admin/billing`;

export type BenefitBatch = {
  id: string;
  name: string;
  grant: "LEVEL" | "AMOUNT";
  memberLevel: string | null;
  days: number | null;
  amount: number | null;
  count: number;
  redeemed: number;
  expiresAt: string | null;
  createTime: string;
};

export const adminApi = {
  plans: () => http.get<AdminPlanTemplate[]>(`${base}/plans`),
  savePlan: (id: string | null, body: Record<string, unknown>) =>
    id ? http.put<AdminPlanTemplate>(`${base}/plans/${id}`, body) : http.post<AdminPlanTemplate>(`${base}/plans`, body),
  deletePlan: (id: string) => http.delete<null>(`${base}/plans/${id}`),
  durations: () => http.get<DurationConfig[]>(`${base}/durations`),
  saveDuration: (id: string | null, body: Record<string, unknown>) =>
    id ? http.put<DurationConfig>(`${base}/durations/${id}`, body) : http.post<DurationConfig>(`${base}/durations`, body),
  deleteDuration: (id: string) => http.delete<null>(`${base}/durations/${id}`),
  recharge: () => http.get<RechargeOption[]>(`${base}/recharge`),
  saveRecharge: (id: string | null, body: Record<string, unknown>) =>
    id ? http.put<RechargeOption>(`${base}/recharge/${id}`, body) : http.post<RechargeOption>(`${base}/recharge`, body),
  deleteRecharge: (id: string) => http.delete<null>(`${base}/recharge/${id}`),
  batches: () => http.get<BenefitBatch[]>(`${base}/benefit-batches`),
  createBatch: (body: Record<string, unknown>) => http.post<{ batch: BenefitBatch; codes: string[] }>(`${base}/benefit-batches`, body),
  codes: (id: string) =>
    http.get<{ code: string; redeemedBy: string | null; redeemedAt: string | null }[]>(`${base}/benefit-batches/${id}/codes`),
  orders: (pageNumber: number) => http.post<{ list: Order[]; total: number }>(`${base}/orders`, { pageNumber, pageSize: 100 }),
  orderAction: (id: string, action: "refund" | "freeze" | "release") => http.post<Order>(`${base}/orders/${id}/${action}`),
  reconcile: () => http.post<null>(`${base}/reconcile`),
  transfers: () =>
    http.get<{ id: string; companyName: string; contacts: string; username: string; createTime: string }[]>(`${base}/transfers`),
};
