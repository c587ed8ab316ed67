import { RELOAD_AFTER_PAY_MS } from "@agentfair/contracts";
import { App as AntApp } from "antd";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useOrderStatusPolling } from "../api/order-status";

/**
 * Polls the open order every 3000 ms; on PAID shows 'WeChat payment succeeded!' and reloads the
 * page (after 2 s, or at once for top-ups). Passing null (dialog closed) stops the polling.
 */
export function usePayWatch(orderId: string | null, reload: "delayed" | "immediate") {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const status = useOrderStatusPolling(orderId);
  const done = useRef<string | null>(null);
  const paid = status.data?.orderStatus === "PAID";
  useEffect(() => {
    if (!paid || !orderId || done.current === orderId) return;
    done.current = orderId;
    message.success(t("billing.paySuccess"));
    const timer = window.setTimeout(() => window.location.reload(), reload === "immediate" ? 0 : RELOAD_AFTER_PAY_MS);
    return () => window.clearTimeout(timer);
  }, [paid, orderId]);
  return status.data?.orderStatus;
}
