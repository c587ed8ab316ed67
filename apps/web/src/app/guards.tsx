import { membershipGateApplies, type UserInfo } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App as AntApp } from "antd";
import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation, useMatches, useNavigate, type UIMatch } from "react-router";
import { useTenantInfo } from "../features/auth/api/tenant-info";
import { loadAreas } from "../i18n";
import { userInfoKey, useUserInfo } from "../features/auth/api/user-info";
import { cancelPending, HttpError } from "../lib/http";
import { clearSession, getToken, removeToken, SESSION_ENDED_EVENT } from "../lib/storage";
import { landingPath, safeRedirect } from "../lib/landing";
import { tenantDomain } from "../lib/tenant";
import { useFirstLogin } from "../features/auth/api/first-login";
import { PageBoundary } from "./page-boundary";

export type RouteHandle = { public?: boolean; membership?: boolean };

const routeHandle = (matches: UIMatch[]): RouteHandle => Object.assign({}, ...matches.map((m) => (m.handle ?? {}) as RouteHandle));

/**
 * The spec's before-each-navigation rules (doc 1 §2): tenant branding by domain, pending
 * requests cancelled, user info loaded once, anonymous users to /login except on public paths,
 * a signed-in user on /login to their landing page, expired or foreign user info signs out.
 */
export function NavigationGuard() {
  const location = useLocation();
  const navigate = useNavigate();
  const matches = useMatches();
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const domain = tenantDomain();
  const tenant = useTenantInfo(domain);
  const user = useUserInfo();
  const handle = routeHandle(matches);
  const token = getToken();
  const path = location.pathname;

  const lastPath = useRef(path);
  // A layout effect runs before the new page's passive effects start its queries, so only the
  // last page's requests are cancelled.
  useLayoutEffect(() => {
    // On each navigation (not the first load): cancel what the last page was waiting for,
    // and fetch the tenant branding again.
    if (lastPath.current === path) return;
    lastPath.current = path;
    cancelPending();
    tenant.refetch();
  }, [path]);

  const signOutExpired = () => {
    message.warning(t("common.userInfoExpired"));
    clearSession();
    queryClient.removeQueries({ queryKey: userInfoKey });
    navigate("/login", { replace: true });
  };

  // Any call answered 403 ends the session (lib/storage endSession): expired user info.
  useEffect(() => {
    const onEnded = () => signOutExpired();
    window.addEventListener(SESSION_ENDED_EVENT, onEnded);
    return () => window.removeEventListener(SESSION_ENDED_EVENT, onEnded);
  });

  useEffect(() => {
    if (!user.error) return;
    const status = user.error instanceof HttpError ? user.error.status : 0;
    if (status === 403) return; // handled by the session-ended event
    if (status === 500 || status === 401) removeToken();
    queryClient.removeQueries({ queryKey: userInfoKey });
    if (!handle.public) navigate(`/login?redirect=${encodeURIComponent(path + location.search)}`, { replace: true });
  }, [user.error]);

  const foreign = !!user.data && !!tenant.data && user.data.tenantDomain !== domain;
  useEffect(() => {
    if (foreign) signOutExpired();
  }, [foreign]);

  useEffect(() => {
    if (!token && !handle.public) {
      navigate(`/login?redirect=${encodeURIComponent(path + location.search)}`, { replace: true });
    } else if (token && path === "/login" && user.data && !foreign) {
      navigate(safeRedirect(location.search) ?? landingPath(user.data), { replace: true });
    }
  }, [path, token, user.data]);

  if (!token && !handle.public) return null;
  if (handle.membership) return user.data ? <MembershipGate user={user.data} /> : null;
  // The standalone pages (chat, sign-in) and the layout itself: a page inside the layout has the layout's own boundary.
  return (
    <>
      <PageBoundary>
        <Outlet />
      </PageBoundary>
      {user.data && <Survey />}
    </>
  );
}

const SurveyModal = lazy(() =>
  Promise.all([import("../features/auth/components/survey-modal"), loadAreas("auth")]).then(([m]) => ({ default: m.SurveyModal })),
);

/** The survey's form loads only for a user who has yet to end it, not on every signed-in page. */
function Survey() {
  const first = useFirstLogin();
  if (!first.data?.isFirstLogin) return null;
  return (
    <Suspense fallback={null}>
      <SurveyModal />
    </Suspense>
  );
}

/** The membership gate (doc 1 §5, doc 2 §6) as a route guard. */
function MembershipGate({ user }: { user: UserInfo }) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const gated = membershipGateApplies(user);
  useEffect(() => {
    if (gated) {
      message.warning(t("common.membershipRequired"));
      navigate("/recharge", { replace: true });
    }
  }, [gated]);
  return gated ? null : (
    <PageBoundary>
      <Outlet />
    </PageBoundary>
  );
}
