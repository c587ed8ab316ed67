import { SESSION_PAGE_SIZE, type SessionItem } from "@agentfair/contracts";
import { type InfiniteData, useInfiniteQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";

type SessionPage = { list: SessionItem[]; total: number };
export type SessionPages = InfiniteData<SessionPage, number>;

export const sessionListKey = (agentId: string, search?: string) =>
  search === undefined ? (["chat", "sessions", agentId] as const) : (["chat", "sessions", agentId, search] as const);
export const fetchSessionList = (agentId: string, search: string, page: number) =>
  http.get<SessionPage>(`${API.runtime}/session_list`, {
    page_number: page,
    page_size: SESSION_PAGE_SIZE,
    schema_id: agentId,
    search: search || undefined,
    // The chat page talks to the released agent: the studio's test chats are not its history.
    release: true,
  });

/** The agent's sessions, newest first, a page of 100 at a time; `search` filters by title. */
export const useSessionList = (agentId: string, search: string, enabled = true) =>
  useInfiniteQuery({
    queryKey: sessionListKey(agentId, search),
    queryFn: ({ pageParam }) => fetchSessionList(agentId, search, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * SESSION_PAGE_SIZE < last.total ? pages.length + 1 : undefined),
    enabled: !!agentId && enabled,
  });

/** Shows a session the first send just created at the top of the list, before its row is saved. */
export function withNewSession(data: SessionPages | undefined, item: SessionItem): SessionPages | undefined {
  if (!data?.pages.length || data.pages.some((p) => p.list.some((s) => s.session_id === item.session_id))) return data;
  const [first, ...rest] = data.pages;
  return { ...data, pages: [{ list: [item, ...first.list], total: first.total + 1 }, ...rest] };
}
