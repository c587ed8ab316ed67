import type { OrderCreated } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const rechargeByAmount = (amount: number, idempotencyKey: string) =>
  http.post<OrderCreated>(`${API.agent}/api/order/recharge/amount`, { amount, idempotencyKey }, { keepOnNavigate: true });
