import { ORDER_POLL_MS, type OrderStatus } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const fetchOrderStatus = (id: string) =>
  http.get<{ orderStatus: OrderStatus }>(`${API.agent}/api/order/${id}/status`, undefined, { silent: true, keepOnNavigate: true });

/** Polls every 3000 ms while `id` is set (the dialog is open); closing the dialog stops it. */
export const useOrderStatusPolling = (id: string | null) =>
  useQuery({
    queryKey: ["billing", "orderStatus", id],
    queryFn: () => fetchOrderStatus(id as string),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data?.orderStatus === "PENDING" || !q.state.data ? ORDER_POLL_MS : false),
    gcTime: 0,
  });
