import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App as AntApp, ConfigProvider } from "antd";
import enUS from "antd/locale/en_US";
import zhCN from "antd/locale/zh_CN";
import dayjs from "dayjs";
import "dayjs/locale/zh-cn";
import { useEffect, useMemo } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { RouterProvider } from "react-router";
import i18n from "../i18n";
import { fetchTenantInfo, tenantInfoKey, useTenantInfo } from "../features/auth/api/tenant-info";
import { configureHttp, HttpError } from "../lib/http";
import { usePrefersReducedMotion } from "../lib/motion";
import { endSession } from "../lib/storage";
import { routerBase, settleTenant, tenantDomain, tenantTokens } from "../lib/tenant";
import { WidgetRenderersProvider } from "../components/chat/widgets";
import { createAppRouter } from "./router";
import { widgetRenderers } from "./widget-renderers";

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/**
 * Settles the route base before the router exists: a first path segment is a tenant only when the
 * server knows it (its branding is kept for the first screen). Only "no such tenant" makes it the
 * default tenant's page not found; a server that cannot be asked keeps the tenant's path.
 */
export const settleRouterBase = () =>
  settleTenant(async (domain) => {
    try {
      queryClient.setQueryData(tenantInfoKey(domain), await fetchTenantInfo(domain));
      return true;
    } catch (err) {
      return !(err instanceof HttpError && err.status === 404);
    }
  });

/** Wires the http client's toasts and the 403 sign-out to antd's App context. */
function HttpBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    configureHttp({
      notifyError: (text) => message.error(text),
      onTokenInvalid: endSession,
    });
  }, [message]);
  useEffect(() => {
    // A refused request has shown its message already: a click handler that awaited it and stopped
    // there has nothing left to report, so its rejection is not an error of the page.
    const shown = (e: PromiseRejectionEvent) => {
      if (e.reason instanceof HttpError) e.preventDefault();
    };
    window.addEventListener("unhandledrejection", shown);
    return () => window.removeEventListener("unhandledrejection", shown);
  }, []);
  return null;
}

function Themed() {
  const { i18n: i } = useTranslation();
  const router = useMemo(() => createAppRouter(routerBase()), []);
  // Those who ask their system for less motion get the components without their animations.
  const motion = !usePrefersReducedMotion();
  // The tenant's colour for every screen, its dialogs and toasts included (App.useApp's confirms, the
  // survey, the standalone chat page), not only for those inside the layout or the login card.
  const tenant = useTenantInfo(tenantDomain());
  useEffect(() => {
    dayjs.locale(i.language === "en" ? "en" : "zh-cn");
    document.documentElement.lang = i.language === "en" ? "en" : "zh-CN";
    document.title = i.t("common.appName");
  }, [i.language]);
  // zeroRuntime: the components' styles come from antd's prebuilt sheet (main.tsx) instead of being
  // generated and injected while rendering, which took a fifth to a quarter of a page load's CPU time
  // in Chromium; the tokens below still reach it as CSS variables, the tenant's colour included.
  return (
    <ConfigProvider
      locale={i.language === "en" ? enUS : zhCN}
      theme={{ zeroRuntime: true, token: { ...tenantTokens(tenant.data), borderRadius: 8, motion } }}
    >
      <AntApp>
        <HttpBridge />
        <WidgetRenderersProvider renderers={widgetRenderers}>
          <RouterProvider router={router} />
        </WidgetRenderersProvider>
      </AntApp>
    </ConfigProvider>
  );
}

export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Themed />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
