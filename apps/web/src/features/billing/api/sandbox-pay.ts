import type { OrderStatus } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export type SandboxPayInfo = { orderNo: string; subject: string; orderAmount: number; orderStatus: OrderStatus };

export const fetchSandboxPay = (orderNo: string, t: string) =>
  http.get<SandboxPayInfo>(`${API.agent}/api/order/sandbox/${encodeURIComponent(orderNo)}`, { t }, { silent: true });
export const decideSandboxPay = (orderNo: string, t: string, decision: "confirm" | "decline") =>
  http.post<SandboxPayInfo>(`${API.agent}/api/order/sandbox/${encodeURIComponent(orderNo)}`, { t, decision });
