/** The studio's agent id is kept in session storage (doc 1 §2). */
const KEY = "studioAgentId";
export const studioAgentId = () => sessionStorage.getItem(KEY);
export const setStudioAgentId = (id: string) => sessionStorage.setItem(KEY, id);
