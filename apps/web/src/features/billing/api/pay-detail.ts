import type { Order } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const fetchPayDetail = (orderNo: string) => http.get<Order & { subject: string }>(`${API.agent}/api/order/payDetail/${orderNo}`);
