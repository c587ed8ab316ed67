import type { DataImportResult } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const importRows = (tableId: string, file: File) => {
  const form = new FormData();
  form.append("file", file);
  return http.post<DataImportResult>(`${API.builder}/datatable/${tableId}/import`, form);
};
