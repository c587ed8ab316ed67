import { membershipGateApplies } from "@agentfair/contracts";
import { App as AntApp } from "antd";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { getToken } from "../../lib/storage";
import { useUserInfo } from "./api/user-info";

/** For actions (not routes): returns true when the user may go on, otherwise redirects. */
export function useGates() {
  const navigate = useNavigate();
  const location = useLocation();
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const user = useUserInfo();
  return {
    requireLogin() {
      if (getToken()) return true;
      navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
      return false;
    },
    requireMembership() {
      if (!this.requireLogin()) return false;
      if (user.data && membershipGateApplies(user.data)) {
        message.warning(t("common.membershipRequired"));
        navigate("/recharge");
        return false;
      }
      return true;
    },
  };
}
