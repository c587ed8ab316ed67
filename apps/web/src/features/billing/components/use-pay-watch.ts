import { RELOAD_AFTER_PAY_MS } from "@agentfair/contracts";
import { App as AntApp } from "antd";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useOrderStatusPolling } from "../api/order-status";

/**
 * The one polling of a payment dialog: every 3000 ms while the dialog is open and shows an
 * order; on PAID shows 'WeChat payment succeeded!' and reloads the page (after 2 s, or at once
 * for top-ups). Closing the dialog, whichever way, stops the polling and any reload.
 */
export function usePayWatch(orderId: string | null | undefined, open: boolean, reload: "delayed" | "immediate") {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const watched = open && orderId ? orderId : null;
  const status = useOrderStatusPolling(watched);
  const done = useRef<string | null>(null);
  const paid = !!watched && status.data?.orderStatus === "PAID";
  useEffect(() => {
    if (!paid || !watched || done.current === watched) return;
    done.current = watched;
    message.success(t("billing.paySuccess"));
    const timer = window.setTimeout(() => window.location.reload(), reload === "immediate" ? 0 : RELOAD_AFTER_PAY_MS);
    return () => window.clearTimeout(timer);
  }, [paid, watched]);
  return watched ? status.data?.orderStatus : undefined;
}
