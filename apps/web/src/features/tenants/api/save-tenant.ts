import type { AdminTenant, TenantBrandingInput, TenantCreateInput } from "@agentfair/contracts";
import { API, http, type RequestOptions } from "../../../lib/http";

/** A new tenant with its branding (and its first administrator when given). */
export const createTenant = (body: TenantCreateInput, opts?: RequestOptions) =>
  http.post<AdminTenant>(`${API.agent}/api/admin/tenants`, body, opts);

/** A tenant's name, logo, colours and filing number. */
export const setTenantBranding = (tenantId: string, body: TenantBrandingInput, opts?: RequestOptions) =>
  http.put<AdminTenant>(`${API.agent}/api/admin/tenants/${encodeURIComponent(tenantId)}`, body, opts);
