import type { KnowledgeBase, knowledgeCreateRequest, knowledgeUpdateRequest } from "@agentfair/contracts";
import type { z } from "zod";
import { API, http } from "../../../lib/http";

/**
 * POST /wendao_api/wendao/knowledge creates, PUT (with id) edits. Silent: the modal shows the
 * server's msg, or 'creation failed!' when there is none (doc 2 §8).
 */
export const createKnowledge = (body: z.input<typeof knowledgeCreateRequest>) =>
  http.post<KnowledgeBase>(`${API.knowledge}/wendao/knowledge`, body, { silent: true });

export const updateKnowledge = (body: z.input<typeof knowledgeUpdateRequest>) =>
  http.put<KnowledgeBase>(`${API.knowledge}/wendao/knowledge`, body, { silent: true });
