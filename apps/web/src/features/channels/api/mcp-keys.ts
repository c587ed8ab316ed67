import type { CreatedMcpKey, CreateMcpKeyRequest, McpKeyItem, McpKeyList, UpdateMcpKeyRequest } from "@agentfair/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

const keysPath = (agentId: string) => `${API.builder}/agent/${agentId}/mcp-keys`;
const queryKey = (agentId: string | null) => ["channels", "mcp-keys", agentId];

/** GET /aiagent_api/agent/{id}/mcp-keys (beyond the spec). */
export const fetchMcpKeys = (agentId: string) => http.get<McpKeyList>(keysPath(agentId));
export const useMcpKeys = (agentId: string | null) =>
  useQuery({ queryKey: queryKey(agentId), queryFn: () => fetchMcpKeys(agentId!), enabled: !!agentId, retry: false });

/** POST /aiagent_api/agent/{id}/mcp-keys: the answer's `key` is shown once. */
export const createMcpKey = (agentId: string, body: CreateMcpKeyRequest) => http.post<CreatedMcpKey>(keysPath(agentId), body);
export const useCreateMcpKey = (agentId: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMcpKeyRequest) => createMcpKey(agentId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKey(agentId) }),
  });
};

/** DELETE /aiagent_api/agent/{id}/mcp-keys/{keyId}. */
export const revokeMcpKey = (agentId: string, keyId: string) => http.delete<null>(`${keysPath(agentId)}/${keyId}`);
export const useRevokeMcpKey = (agentId: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => revokeMcpKey(agentId, keyId),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKey(agentId) }),
  });
};

/** PUT /aiagent_api/agent/{id}/mcp-keys/{keyId}: name, knowledge search and limits per minute. */
export const updateMcpKey = (agentId: string, keyId: string, body: UpdateMcpKeyRequest) =>
  http.put<McpKeyItem>(`${keysPath(agentId)}/${keyId}`, body);
export const useUpdateMcpKey = (agentId: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ keyId, body }: { keyId: string; body: UpdateMcpKeyRequest }) => updateMcpKey(agentId, keyId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKey(agentId) }),
  });
};
