import { Alert, Card, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Footer } from "./footer";
import { LanguageSwitch } from "../../../components/language-switch";
import { tenantDisplayName, tenantDomain } from "../../../lib/tenant";
import { useTenantInfo } from "../api/tenant-info";

/** The frame of the public pages: the tenant's logo, name and background (its colour is the app's theme, app.tsx). */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const query = useTenantInfo(tenantDomain());
  const tenant = query.data;
  return (
    <div
      data-testid="auth-background"
      style={{
        minHeight: "100vh",
        display: "flex",
        flexDirection: "column",
        background: `linear-gradient(135deg, ${tenant?.backgroundColor || "#f0f5ff"} 0%, #ffffff 100%)`,
      }}
    >
      <div style={{ display: "flex", justifyContent: "flex-end", padding: "12px 24px 0" }}>
        <LanguageSwitch />
      </div>
      <div style={{ flex: 1, display: "flex", alignItems: "center", justifyContent: "center", padding: 24 }}>
        <Card style={{ width: 420, boxShadow: "0 8px 32px rgba(0,0,0,0.08)" }}>
          <div style={{ display: "flex", alignItems: "center", gap: 12, marginBottom: 8 }}>
            <img src={tenant?.logo || "/favicon.svg"} alt="" width={40} height={40} data-testid="tenant-logo" />
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="tenant-name">
              {tenantDisplayName(tenant, t)}
            </Typography.Title>
          </div>
          <Typography.Paragraph type="secondary">{title}</Typography.Paragraph>
          {query.error && <Alert type="error" showIcon title={query.error.message} style={{ marginBottom: 16 }} />}
          {children}
        </Card>
      </div>
      <Footer />
    </div>
  );
}
