import { API, http } from "../../../lib/http";

export const deleteTable = (id: string) => http.delete<null>(`${API.builder}/datatable/${id}`);
