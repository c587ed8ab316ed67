import type { TenantMember, TenantMemberInput, TenantMemberUpdate } from "@agentfair/contracts";
import { API, http, type RequestOptions } from "../../../lib/http";

const M = `${API.agent}/api/tenant/members`;

/** Adds a member to the caller's tenant with a first password. */
export const addTenantMember = (body: TenantMemberInput, opts?: RequestOptions) => http.post<TenantMember>(M, body, opts);

/** Changes a member's role, stops or restarts the account, or sets a new password (which signs them out everywhere). */
export const updateTenantMember = (id: string, body: TenantMemberUpdate, opts?: RequestOptions) =>
  http.put<TenantMember>(`${M}/${encodeURIComponent(id)}`, body, opts);
