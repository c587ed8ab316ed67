import type { WalletLogPage } from "@agentfair/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

export type WalletLogQuery = { type: "USE" | "ALL"; pageNumber: number; pageSize: number; startDate?: string; endDate?: string };

export const fetchWalletLog = ({ type, ...body }: WalletLogQuery) =>
  http.post<WalletLogPage>(`${API.agent}/api/userWalletLog/page/${type}`, body);
export const useWalletLog = (q: WalletLogQuery) =>
  useQuery({ queryKey: ["billing", "walletLog", q], queryFn: () => fetchWalletLog(q), placeholderData: keepPreviousData });
