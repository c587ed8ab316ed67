import type { OrderCreated } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** Membership order for a plan template; the server computes the price. */
export const createOrder = (
  templateId: string,
  body: { renewUpgrade?: "RENEW" | "UPGRADE"; configId?: string; groupName?: string; groupId?: string; idempotencyKey?: string },
) => http.post<OrderCreated>(`${API.agent}/api/order/${templateId}/create`, body, { keepOnNavigate: true });
