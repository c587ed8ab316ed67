import type { DataTable, DataTableInput } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const saveTable = (id: string | null, body: DataTableInput) =>
  id ? http.put<DataTable>(`${API.builder}/datatable`, { ...body, id }) : http.post<DataTable>(`${API.builder}/datatable`, body);
