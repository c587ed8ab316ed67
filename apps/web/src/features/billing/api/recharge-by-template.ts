import type { OrderCreated } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const rechargeByTemplate = (id: string, idempotencyKey: string) =>
  http.post<OrderCreated>(`${API.agent}/api/order/recharge/${id}/create`, { idempotencyKey }, { keepOnNavigate: true });
