import type { OrderCreated } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** Team purchase (groupName / groupId). */
export const buyMembers = (body: {
  orderTemplateId: string;
  renewUpgrade?: "RENEW" | "UPGRADE";
  configId?: string;
  groupName?: string;
  groupId?: string;
  idempotencyKey?: string;
}) => http.post<OrderCreated>(`${API.agent}/api/order/buyMembers`, body, { keepOnNavigate: true });
