import type { AdminTenant } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const adminTenantsKey = ["admin", "tenants"] as const;
export const fetchAdminTenants = () => http.get<AdminTenant[]>(`${API.agent}/api/admin/tenants`);
export const useAdminTenants = () => useQuery({ queryKey: adminTenantsKey, queryFn: fetchAdminTenants });
