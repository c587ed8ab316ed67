import { API, http } from "../../../lib/http";

export const updateSessionTitle = (session_id: string, new_title: string) =>
  http.post<null>(`${API.runtime}/update_session_title`, { session_id, new_title });
