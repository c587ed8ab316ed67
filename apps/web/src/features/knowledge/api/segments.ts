import type { segmentPage } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { API, http } from "../../../lib/http";

export const SEGMENTS_PAGE_SIZE = 10;

/** GET …/{id}/segments?fileId=&page=&limit=: the stored segments of one file. */
export const useSegments = (baseId: string, fileId: string | null, page: number) =>
  useQuery({
    queryKey: ["knowledge", "segments", baseId, fileId, page],
    queryFn: () =>
      http.get<z.infer<typeof segmentPage>>(`${API.knowledge}/wendao/knowledge/${baseId}/segments`, {
        fileId: fileId ?? undefined,
        page,
        limit: SEGMENTS_PAGE_SIZE,
      }),
    enabled: !!fileId,
    placeholderData: keepPreviousData,
  });
