import type { CardTemplate, CardTemplateInput } from "@agentfair/contracts";
import { API, http } from "../../../lib/http";

/** POST /aiagent_api/cards (new) or PUT /aiagent_api/cards/{id}. */
export const saveCard = (id: string | null, input: CardTemplateInput) =>
  id ? http.put<CardTemplate>(`${API.builder}/cards/${id}`, input) : http.post<CardTemplate>(`${API.builder}/cards`, input);
