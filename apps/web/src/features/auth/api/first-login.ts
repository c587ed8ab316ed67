import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";
import { storage } from "../../../lib/storage";

export const firstLoginKey = (userId: string) => ["isFirstLogin", userId];

/** Whether the signed-in user has yet to end the usage-intent survey (doc 1 §5); asked once per page life. */
export function useFirstLogin() {
  const user = storage.user();
  return useQuery({
    queryKey: firstLoginKey(user?.userId ?? ""),
    queryFn: () =>
      http.get<{ isFirstLogin: boolean }>(
        `${API.agent}/api/userinfo/findIsFirstLogin`,
        { tenantId: user?.tenantId ?? "" },
        { silent: true, keepOnNavigate: true },
      ),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
