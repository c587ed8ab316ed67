import { API, http } from "../../../lib/http";

export const getShareToken = (session_id: string) =>
  http.post<{ shareToken: string; session_id: string; schema_id: string }>(`${API.runtime}/share_token`, { session_id });
export const revokeShare = (session_id: string) => http.post<null>(`${API.runtime}/revoke_share`, { session_id });
