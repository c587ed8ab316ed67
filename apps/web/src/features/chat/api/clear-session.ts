import { API, http } from "../../../lib/http";

export const clearSession = (session_id: string) => http.post<null>(`${API.runtime}/clear_session`, { session_id });
