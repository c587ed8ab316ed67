import type { AdminTenant, TenantRoleInput } from "@agentfair/contracts";
import { API, http, type RequestOptions } from "../../../lib/http";

/** Grants (admin) or revokes (member) a tenant user's administrator role. */
export const setTenantRole = (tenantId: string, body: TenantRoleInput, opts?: RequestOptions) =>
  http.put<AdminTenant>(`${API.agent}/api/admin/tenants/${encodeURIComponent(tenantId)}/role`, body, opts);

/** Opens or closes a tenant's sign-ups. */
export const setTenantRegistration = (tenantId: string, open: boolean) =>
  http.put<AdminTenant>(`${API.agent}/api/admin/tenants/${encodeURIComponent(tenantId)}/registration`, { open });
