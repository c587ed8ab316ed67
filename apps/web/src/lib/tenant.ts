/**
 * The route base is the first path segment when it names a tenant (e.g. /acme/login);
 * paths of the app itself have no base (the default tenant).
 */
export const APP_SEGMENTS = new Set([
  "",
  "login",
  "register",
  "forget",
  "qr-confirm",
  "index",
  "home",
  "insight",
  "rpa",
  "recharge",
  "studio",
  "user-order",
  "agent-execute",
  "agent-detail",
  "insight-detail",
  "knowledge-list",
  "share-page",
  "pay",
  "admin",
  "models",
]);

export function tenantDomainFromPath(pathname = window.location.pathname): string {
  const first = pathname.split("/")[1] ?? "";
  return APP_SEGMENTS.has(first) ? "" : decodeURIComponent(first);
}

export const routerBase = () => {
  const domain = tenantDomainFromPath();
  return domain ? `/${domain}` : "/";
};

/**
 * The name in the header and on the login card. The default tenant's name is stored in Chinese
 * (the seeded "Agentfair 智能体平台"); while it is unchanged it follows the interface language.
 */
export function tenantDisplayName(
  tenant: { tenantId: string | null; name: string } | undefined,
  t: (key: string, options?: { lng: string }) => string,
): string {
  const appName = t("common.appName");
  if (!tenant?.name) return appName;
  if (!tenant.tenantId && tenant.name === t("common.appName", { lng: "zh" })) return appName;
  return tenant.name;
}
