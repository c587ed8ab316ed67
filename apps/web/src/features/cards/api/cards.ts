import type { CardTemplate } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /aiagent_api/cards: the caller's card templates. */
export const fetchCards = () => http.get<CardTemplate[]>(`${API.builder}/cards`);
export const cardsKey = ["cards"] as const;
export const useCards = (enabled = true) => useQuery({ queryKey: cardsKey, queryFn: fetchCards, enabled });
