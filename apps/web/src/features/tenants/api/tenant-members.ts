import { TENANT_MEMBER_PAGE_SIZE, type TenantMember } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const tenantMembersKey = ["tenant", "members"] as const;

/** GET /agent_api/api/tenant/members: one page of the caller's tenant's members, newest first. */
export const fetchTenantMembers = (pageNo: number, keyword: string) =>
  http.get<{ list: TenantMember[]; total: number }>(`${API.agent}/api/tenant/members`, {
    pageNo,
    pageSize: TENANT_MEMBER_PAGE_SIZE,
    keyword: keyword || undefined,
  });

/** The page shown stays while the next one (or the next search) loads. */
export const useTenantMembers = (pageNo: number, keyword: string) =>
  useQuery({
    queryKey: [...tenantMembersKey, pageNo, keyword],
    queryFn: () => fetchTenantMembers(pageNo, keyword),
    placeholderData: keepPreviousData,
  });
