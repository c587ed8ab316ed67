import { TOKEN_COOKIE, REPORT_TOKEN_COOKIE, type TenantInfo, type UserInfo } from "@agentfair/contracts";

/** Tenant info and user info are kept in local storage (doc 1 §3); the token in a cookie for 1 day. */
const KEYS = { tenant: "tenantInfo", user: "userInfo", lang: "lang" } as const;

function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export const storage = {
  tenant: () => readJson<TenantInfo>(KEYS.tenant),
  setTenant: (t: TenantInfo) => localStorage.setItem(KEYS.tenant, JSON.stringify(t)),
  user: () => readJson<UserInfo>(KEYS.user),
  setUser: (u: UserInfo) => localStorage.setItem(KEYS.user, JSON.stringify(u)),
  lang: () => (localStorage.getItem(KEYS.lang) === "en" ? "en" : "zh") as "zh" | "en",
  setLang: (lang: "zh" | "en") => localStorage.setItem(KEYS.lang, lang),
};

export function getCookie(name: string) {
  const match = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

function setCookie(name: string, value: string, maxAgeSeconds: number) {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the platform supports
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAgeSeconds}; samesite=lax`;
}

export const getToken = () => getCookie(TOKEN_COOKIE);
/** The second cookie (doc 1 §4): the token the report calls under /prod-api carry. */
export const getReportToken = () => getCookie(REPORT_TOKEN_COOKIE);

/** A sign-in: the tokens, and what was put off until the next sign-in comes back. */
export function setTokens(tokens: { token: string; reportToken: string }) {
  setCookie(TOKEN_COOKIE, tokens.token, 24 * 60 * 60);
  setCookie(REPORT_TOKEN_COOKIE, tokens.reportToken, 24 * 60 * 60);
  sessionStorage.removeItem(SURVEY_LATER);
}

/** The usage-intent survey closed without an answer: not again until the next sign-in. */
const SURVEY_LATER = "surveyLater";
export const surveyLater = {
  get: () => sessionStorage.getItem(SURVEY_LATER) === "1",
  set: () => sessionStorage.setItem(SURVEY_LATER, "1"),
};

/** Removes the stored authorisation only (user info failing with 500/401). */
export function removeToken() {
  setCookie(TOKEN_COOKIE, "", 0);
  setCookie(REPORT_TOKEN_COOKIE, "", 0);
}

/** Sign-out: cookies and local storage, keeping the language choice. */
export function clearSession() {
  removeToken();
  localStorage.removeItem(KEYS.user);
}

/** Fired when the server says the session is gone (HTTP 403): the navigation guard signs out. */
export const SESSION_ENDED_EVENT = "agentfair:session-ended";
export function endSession() {
  clearSession();
  window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
}
