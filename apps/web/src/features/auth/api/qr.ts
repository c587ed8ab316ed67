import type { TokenResponse } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

export type QrTicket = { id: string; key: string; url: string; img: string; expiresAt: string };
export type QrStatus = { status: "WAITING" | "CONFIRMED" | "EXPIRED" } & Partial<TokenResponse>;

export const createQrTicket = (domain: string) =>
  http.get<QrTicket>(`${API.agent}/api/appletLogin/qrcode`, { domain }, { keepOnNavigate: true });
export const qrStatus = (ticket: Pick<QrTicket, "id" | "key">) =>
  http.get<QrStatus>(
    `${API.agent}/api/appletLogin/qrcode/status/${ticket.id}`,
    { key: ticket.key },
    { silent: true, keepOnNavigate: true },
  );
export const confirmQr = (id: string) => http.post<null>(`${API.agent}/api/appletLogin/qrcode/${id}/confirm`, undefined, { silent: true });
