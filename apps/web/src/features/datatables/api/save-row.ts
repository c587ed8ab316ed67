import { API, http } from "../../../lib/http";

type Values = Record<string, string | number | boolean | null>;
export const saveRow = (tableId: string, rowId: number | null, values: Values) =>
  rowId === null
    ? http.post<null>(`${API.builder}/datatable/${tableId}/rows`, values)
    : http.put<null>(`${API.builder}/datatable/${tableId}/rows/${rowId}`, values);
