import { API, http } from "../../../lib/http";

export const deleteRow = (tableId: string, rowId: number) => http.delete<null>(`${API.builder}/datatable/${tableId}/rows/${rowId}`);
