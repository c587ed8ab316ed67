import type { TokenResponse } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export type QrTicket = { id: string; url: string; img: string; expiresAt: string };
export type QrStatus = { status: "WAITING" | "CONFIRMED" | "EXPIRED" } & Partial<TokenResponse>;

export const createQrTicket = (domain: string) =>
  http.get<QrTicket>(`${API.agent}/api/appletLogin/qrcode`, { domain }, { keepOnNavigate: true });
export const qrStatus = (id: string) =>
  http.get<QrStatus>(`${API.agent}/api/appletLogin/qrcode/status/${id}`, undefined, { silent: true, keepOnNavigate: true });
export const confirmQr = (id: string) => http.post<null>(`${API.agent}/api/appletLogin/qrcode/${id}/confirm`, undefined, { silent: true });
