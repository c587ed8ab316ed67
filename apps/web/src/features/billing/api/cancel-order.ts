import type { Order } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const cancelOrder = (orderId: string, opts?: { silent?: boolean }) =>
  http.post<Order>(`${API.agent}/api/order/cancelOrder`, { orderId }, opts);
