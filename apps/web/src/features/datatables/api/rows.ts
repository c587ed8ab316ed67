import type { DataRow } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export const rowsKey = (id: string) => ["datatables", id, "rows"] as const;
export const fetchRows = (id: string, pageNumber: number, pageSize: number) =>
  http.post<{ list: DataRow[]; total: number }>(`${API.builder}/datatable/${id}/rows/page`, { pageNumber, pageSize });
export const useRows = (id: string, pageNumber: number, pageSize: number) =>
  useQuery({ queryKey: [...rowsKey(id), pageNumber, pageSize], queryFn: () => fetchRows(id, pageNumber, pageSize) });
