import { useQueryClient } from "@tanstack/react-query";
import { App } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useGates } from "../../auth/use-gates";
import { copyAgent } from "../api/copy-agent";
import { wasCopied } from "../api/was-copied";

/**
 * The copy flow (doc 1 §4): confirm ('confirm copy this agent', or 'copied before, copy again?'
 * when it was copied before), copy, '复制成功！', then land on /home.
 */
export function useCopyAgent() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const gates = useGates();
  const queryClient = useQueryClient();
  return async (agentId: string, opts: { share?: boolean } = {}) => {
    if (!gates.requireLogin()) return;
    const { copied } = await wasCopied(agentId);
    modal.confirm({
      title: copied ? t("agents.copy.copiedBefore") : t("agents.copy.confirm"),
      okText: t("common.confirm"),
      cancelText: t("common.cancel"),
      onOk: async () => {
        await copyAgent(agentId, opts);
        message.success(t("agents.copy.success"));
        await queryClient.invalidateQueries({ queryKey: ["agents"] });
        navigate("/home");
      },
    });
  };
}
