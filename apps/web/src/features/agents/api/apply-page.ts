import type { ApplyItem, ApplyStatus } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export type ApplyPageRequest = { status?: ApplyStatus; page: number; size: number };

/** POST /api/agentApply/page: the administrator's review queue. */
export const applyPage = (req: ApplyPageRequest) =>
  http.post<{ list: ApplyItem[]; total: number }>(`${API.agent}/api/agentApply/page`, req);
export const useApplyPage = (req: ApplyPageRequest) =>
  useQuery({ queryKey: ["agents", "applies", req], queryFn: () => applyPage(req), placeholderData: keepPreviousData });
