import { API, http } from "../../../lib/http";

export const deleteModel = (id: string) => http.delete<null>(`${API.agent}/api/models/${id}`);
