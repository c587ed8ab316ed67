import { Button } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { ErrorBoundary } from "../components/error-boundary";
import { LazyResult } from "../components/lazy-result";

/**
 * Keeps a page that throws while rendering (odd data from the server, a bug in a card, the
 * designer, a dashboard) inside its part of the screen: the layout and its navigation stay, the
 * page's place says it could not be shown and offers to try again. Going to another address
 * tries again on its own. The error goes to the console with the address it happened on.
 */
export function PageBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const [attempt, setAttempt] = useState(0);
  return (
    <ErrorBoundary
      resetKeys={[pathname, attempt]}
      onError={(error, info) => console.error(`Page ${pathname} failed to render:`, error, info.componentStack)}
      fallback={<PageFailed onRetry={() => setAttempt((n) => n + 1)} />}
    >
      {children}
    </ErrorBoundary>
  );
}

function PageFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <LazyResult
      status="error"
      title={t("common.pageError.title")}
      subTitle={t("common.pageError.detail")}
      data-testid="page-error"
      extra={[
        <Button key="retry" type="primary" onClick={onRetry}>
          {t("common.pageError.retry")}
        </Button>,
        <Button key="home" onClick={() => navigate("/index")}>
          {t("common.nav.index")}
        </Button>,
      ]}
    />
  );
}
