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
