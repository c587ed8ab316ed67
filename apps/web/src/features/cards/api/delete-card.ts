import { API, http } from "../../../lib/http";

/** DELETE /aiagent_api/cards/{id}: its plugin bindings go with it. */
export const deleteCard = (id: string) => http.delete<null>(`${API.builder}/cards/${id}`);
