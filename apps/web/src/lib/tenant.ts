import { APP_PATH_SEGMENTS } from "@agentfair/contracts";

/**
 * The route base is the first path segment when it names a tenant (e.g. /acme/login); paths of
 * the app itself, and any segment the server does not know as a tenant (a mistyped /indx), have
 * no base: the default tenant, whose router shows its page not found. app/router.test.ts checks
 * that every route's first segment is listed (in contracts, where the server keeps tenant domains off them).
 */
export const APP_SEGMENTS = new Set<string>(["", ...APP_PATH_SEGMENTS]);

/** The first path segment when it may be a tenant's domain (not a path of the app itself). */
export function tenantCandidate(pathname = window.location.pathname): string {
  const first = pathname.split("/")[1] ?? "";
  if (APP_SEGMENTS.has(first)) return "";
  try {
    return decodeURIComponent(first);
  } catch {
    return "";
  }
}

let settled: string | null = null;

/**
 * Decides once per page load whether the candidate segment is a tenant: `isTenant` asks the
 * server. Until then (and in tests that never settle) the candidate counts.
 */
export async function settleTenant(isTenant: (domain: string) => Promise<boolean>) {
  const candidate = tenantCandidate();
  settled = candidate && (await isTenant(candidate)) ? candidate : "";
  return settled;
}

/** The tenant domain of this page load: "" for the default tenant. */
export const tenantDomain = () => settled ?? tenantCandidate();

export const routerBase = () => {
  const domain = tenantDomain();
  return domain ? `/${domain}` : "/";
};

/** The platform's own colour, for the default tenant and a tenant that set none. */
export const DEFAULT_PRIMARY = "#1677ff";

/**
 * The theme tokens of a tenant's colour. Links take it too: antd derives them from its info colour,
 * not the primary one, so a tenant's login page and tables had the platform's blue links.
 */
export function tenantTokens(tenant: { primaryColor?: string } | undefined) {
  const color = tenant?.primaryColor || DEFAULT_PRIMARY;
  return { colorPrimary: color, colorLink: color };
}

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
