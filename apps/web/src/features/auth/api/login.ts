import type { LoginRequest, TokenResponse } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export const login = (body: LoginRequest) => http.post<TokenResponse>(`${API.agent}/api/auth/login`, body, { silent: true });
