import { ORDER_PAGE_SIZE, type Order } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const fetchOrderList = (pageNumber: number) =>
  http.post<{ list: Order[]; total: number }>(`${API.agent}/api/order/orderList`, {
    createdByMe: true,
    pageNumber,
    pageSize: ORDER_PAGE_SIZE,
  });
export const useOrderList = (pageNumber: number) =>
  useQuery({ queryKey: ["billing", "orderList", pageNumber], queryFn: () => fetchOrderList(pageNumber) });
