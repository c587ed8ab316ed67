import { RPA_PAGE_SIZE, type RpaLiveList } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** RPA live list (doc 2 §7): pageNo, pageSize 15; the server filters livePolicy 1 and sorts by playInfo. */
export const useLiveList = (pageNo: number, enabled: boolean) =>
  useQuery({
    queryKey: ["rpa", "live", pageNo],
    queryFn: () => http.get<RpaLiveList>(`${API.agent}/api/rpa/live/list`, { pageNo, pageSize: RPA_PAGE_SIZE }),
    enabled,
    placeholderData: keepPreviousData,
  });
