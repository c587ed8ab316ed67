import type { DesignPage } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** The most designs one picker lists (the page call's largest page). */
const PICKER_LIMIT = 100;

/** GET /aiagent_api/designer/page: the caller's own designs, for the studio's reply-card picker. */
export const fetchMyDesigns = () =>
  http.get<DesignPage>(`${API.builder}/designer/page`, { page: 1, limit: PICKER_LIMIT }, { silent: true });

export const useMyDesigns = () => useQuery({ queryKey: ["agents", "bindable", "designs"], queryFn: fetchMyDesigns, staleTime: 30_000 });
