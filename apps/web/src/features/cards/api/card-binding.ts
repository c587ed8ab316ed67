import type { CardBinding } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

/** GET /aiagent_api/cards/binding/{pluginId}: the plugin's card (cardId null: none). */
export const fetchCardBinding = (pluginId: string) => http.get<CardBinding>(`${API.builder}/cards/binding/${pluginId}`);
export const cardBindingKey = (pluginId: string) => ["cards", "binding", pluginId] as const;
export const useCardBinding = (pluginId: string) =>
  useQuery({ queryKey: cardBindingKey(pluginId), queryFn: () => fetchCardBinding(pluginId), enabled: !!pluginId });

/** PUT /aiagent_api/cards/binding/{pluginId}: binds the caller's card (null unbinds). */
export const bindCard = (pluginId: string, cardId: string | null) =>
  http.put<CardBinding>(`${API.builder}/cards/binding/${pluginId}`, { cardId });
