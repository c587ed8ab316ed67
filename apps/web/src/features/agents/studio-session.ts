/** The studio's agent id is kept in session storage (doc 1 §2). */
const KEY = "studioAgentId";
export const studioAgentId = () => sessionStorage.getItem(KEY);
export const setStudioAgentId = (id: string) => sessionStorage.setItem(KEY, id);
export const clearStudioAgentId = () => sessionStorage.removeItem(KEY);
/** A new agent is edited as a blank draft and created on its first save. */
export const NEW_AGENT_PATH = "/studio?new=1";

/** The debug pane's conversation per agent, kept for the tab's life: a reload shows it again, with a reply still being written. */
const debugKey = (agentId: string) => `studioDebugSession:${agentId}`;
export const studioDebugSession = (agentId: string) => sessionStorage.getItem(debugKey(agentId));
export const setStudioDebugSession = (agentId: string, sessionId: string | null) =>
  sessionId ? sessionStorage.setItem(debugKey(agentId), sessionId) : sessionStorage.removeItem(debugKey(agentId));
