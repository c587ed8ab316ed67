import { API, http } from "../../../lib/http";

export const deleteSession = (session_id: string) => http.post<null>(`${API.runtime}/delete_session`, { session_id });
