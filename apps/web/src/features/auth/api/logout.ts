import { API, http } from "../../../lib/http";

export const logout = () => http.post<null>(`${API.agent}/api/auth/logout`, undefined, { silent: true });
