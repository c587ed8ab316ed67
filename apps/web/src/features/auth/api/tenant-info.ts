import type { TenantInfo } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";
import { storage } from "../../../lib/storage";

export const fetchTenantInfo = async (domain: string) => {
  const info = await http.get<TenantInfo>(`${API.agent}/api/auth/reg/getTenantInfo`, { domain }, { silent: true, keepOnNavigate: true });
  storage.setTenant(info);
  return info;
};

export const tenantInfoKey = (domain: string) => ["tenantInfo", domain];

export const useTenantInfo = (domain: string) =>
  useQuery({ queryKey: tenantInfoKey(domain), queryFn: () => fetchTenantInfo(domain), staleTime: 60_000, initialData: undefined });
