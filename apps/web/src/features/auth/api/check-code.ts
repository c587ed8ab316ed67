import type { TokenResponse } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

type Purpose = "register" | "login" | "reset";

export const sendCheckCode = (body: { contact: string; purpose: Purpose; domain: string }) =>
  http.post<null>(`${API.agent}/api/auth/reg/send-check-code`, body);

export const register = (body: { username: string; password: string; contact: string; checkCode: string; domain: string }) =>
  http.post<TokenResponse>(`${API.agent}/api/auth/reg`, body, { silent: true });

export const codeLogin = (body: { contact: string; checkCode: string; domain: string }) =>
  http.post<TokenResponse>(`${API.agent}/api/auth/reg/emailPhoneLogin`, body, { silent: true });

export const resetPassword = (body: { contact: string; checkCode: string; password: string; domain: string }) =>
  http.post<null>(`${API.agent}/api/auth/reg/resetPassword`, body, { silent: true });
