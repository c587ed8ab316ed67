import type { OrderCreated } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const rePayOrder = (orderId: string) => http.post<OrderCreated>(`${API.agent}/api/order/rePayOrder/${orderId}`);
