import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export type UseCountRow = { schema_id: string; count: number };

/** POST /agent/agent_runtime/schema_use_count_by_schema_ids: task counts of the cards shown. */
export const useCountsByIds = (schemaIds: string[]) =>
  http.post<UseCountRow[]>(`${API.runtime}/schema_use_count_by_schema_ids`, { schema_ids: schemaIds }, { silent: true });

export const useUseCounts = (ids: string[]) =>
  useQuery({
    queryKey: ["agents", "useCounts", ids],
    queryFn: async () => new Map((await useCountsByIds(ids)).map((r) => [r.schema_id, r.count])),
    enabled: ids.length > 0,
  });
