import type { UserInfo } from "@agentfair/contracts";
import { useQuery } from "@tanstack/react-query";
import { API, http } from "../../../lib/http";
import { getToken, storage } from "../../../lib/storage";

export const userInfoKey = ["userInfo"] as const;
export const fetchUserInfo = async () => {
  const info = await http.get<UserInfo>(`${API.agent}/api/userinfo/findUserInfo`, undefined, { silent: true, keepOnNavigate: true });
  storage.setUser(info);
  return info;
};

/** Loaded once when a token exists (doc 1 §2); screens read it from here. */
export const useUserInfo = () =>
  useQuery({ queryKey: userInfoKey, queryFn: fetchUserInfo, enabled: !!getToken(), staleTime: 5 * 60_000, retry: false });
