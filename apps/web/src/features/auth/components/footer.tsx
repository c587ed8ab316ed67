import { Layout } from "antd";
import { useTranslation } from "react-i18next";
import { usePlatformSettings } from "../api/platform-settings";
import { useTenantInfo } from "../api/tenant-info";
import { tenantDomain } from "../../../lib/tenant";

/** The record-filing number chosen by site origin (three variants, configurable on the server). */
export function recordFilingFor(variants: { origin: string; text: string }[], hostname: string) {
  return (
    variants.find((v) => v.origin !== "*" && (hostname === v.origin || hostname.endsWith(`.${v.origin}`)))?.text ??
    variants.find((v) => v.origin === "*")?.text ??
    ""
  );
}

export function Footer() {
  const { t } = useTranslation();
  const settings = usePlatformSettings();
  const tenant = useTenantInfo(tenantDomain());
  const filing = tenant.data?.recordFiling || recordFilingFor(settings.data?.recordFiling ?? [], window.location.hostname);
  return (
    <Layout.Footer style={{ textAlign: "center", color: "#8c8c8c", fontSize: 12, padding: "16px 24px" }}>
      {t("common.footer.copyright", { year: new Date().getFullYear() })}
      {filing && (
        <>
          {" · "}
          <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer" style={{ color: "inherit" }} data-testid="record-filing">
            {filing}
          </a>
        </>
      )}
    </Layout.Footer>
  );
}
