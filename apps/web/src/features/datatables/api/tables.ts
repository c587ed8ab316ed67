import type { DataTable } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const tablesKey = ["datatables"] as const;
/** POST /aiagent_api/datatable/page: the caller's data tables. */
export const fetchTables = (name?: string) =>
  http.post<{ list: DataTable[]; total: number }>(`${API.builder}/datatable/page`, {
    name: name || undefined,
    pageNumber: 1,
    pageSize: 100,
  });
export const useTables = (name?: string) => useQuery({ queryKey: [...tablesKey, name ?? ""], queryFn: () => fetchTables(name) });
