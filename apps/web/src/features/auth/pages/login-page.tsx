import { LockOutlined, ReloadOutlined, SafetyOutlined, UserOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Form, Input, Space, Tabs } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { HttpError } from "../../../lib/http";
import { setTokens } from "../../../lib/storage";
import { tenantDomain } from "../../../lib/tenant";
import { landingPath, safeRedirect } from "../../../lib/landing";
import { useCaptcha } from "../api/captcha";
import { useTenantInfo } from "../api/tenant-info";
import { login } from "../api/login";
import { fetchUserInfo, userInfoKey } from "../api/user-info";
import { AuthCard } from "../components/auth-card";
import { CodeLoginForm } from "../components/code-login-form";
import { QrLogin } from "../components/qr-login";

/** After any sign-in: load user info once, then go back where the user came from. */
export function useSignedIn() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  return async (tokens: { token: string; reportToken: string }) => {
    setTokens(tokens);
    const info = await queryClient.fetchQuery({ queryKey: userInfoKey, queryFn: fetchUserInfo });
    navigate(safeRedirect(location.search) ?? landingPath(info), { replace: true });
  };
}

function PasswordLogin() {
  const { t } = useTranslation();
  const captcha = useCaptcha();
  const signedIn = useSignedIn();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const onFinish = async (values: { username: string; password: string; code?: string }) => {
    setBusy(true);
    setError(undefined);
    try {
      const tokens = await login({ ...values, uuid: captcha.data?.uuid, domain: tenantDomain() });
      await signedIn(tokens);
    } catch (e) {
      setError(e instanceof HttpError ? e.message : String(e));
      captcha.refetch();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form layout="vertical" size="large" onFinish={onFinish} requiredMark={false}>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="login-error" />}
      <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t("auth.usernameRequired") }]}>
        <Input prefix={<UserOutlined />} placeholder={t("auth.username")} autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" rules={[{ required: true, message: t("auth.passwordRequired") }]}>
        <Input.Password prefix={<LockOutlined />} placeholder={t("auth.password")} autoComplete="current-password" />
      </Form.Item>
      {captcha.data?.captchaEnabled && (
        <Form.Item name="code" rules={[{ required: true, whitespace: true, message: t("auth.captchaRequired") }]}>
          <Space.Compact style={{ width: "100%" }}>
            <Input prefix={<SafetyOutlined />} placeholder={t("auth.captcha")} maxLength={8} />
            <Button
              onClick={() => captcha.refetch()}
              title={t("auth.refreshCaptcha")}
              style={{ padding: 0, width: 130, overflow: "hidden" }}
              icon={captcha.data.img ? undefined : <ReloadOutlined />}
            >
              {captcha.data.img && <img src={captcha.data.img} alt={t("auth.captcha")} height={38} data-testid="captcha-image" />}
            </Button>
          </Space.Compact>
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t("auth.loginButton")}
      </Button>
    </Form>
  );
}

export function LoginPage() {
  const { t } = useTranslation();
  const location = useLocation();
  // A share link opened signed out lands here: say why a sign-in comes before the conversation.
  const toShare = safeRedirect(location.search)?.startsWith("/share-page");
  // Sign-up is offered where the tenant takes it (its administrator adds accounts otherwise).
  const canRegister = useTenantInfo(tenantDomain()).data?.openRegistration !== false;
  return (
    <AuthCard title={t("auth.welcome")}>
      {toShare && <Alert type="info" showIcon title={t("auth.shareSignIn")} style={{ marginBottom: 8 }} data-testid="login-reason" />}
      <Tabs
        items={[
          { key: "password", label: t("auth.passwordTab"), children: <PasswordLogin /> },
          { key: "code", label: t("auth.codeTab"), children: <CodeLoginForm /> },
          { key: "qr", label: t("auth.qrTab"), children: <QrLogin />, destroyOnHidden: true },
        ]}
      />
      <div style={{ display: "flex", justifyContent: "space-between", marginTop: 16 }}>
        {canRegister ? (
          <span>
            {t("auth.noAccount")} <Link to="/register">{t("auth.toRegister")}</Link>
          </span>
        ) : (
          <span data-testid="registration-closed">{t("auth.askAdministrator")}</span>
        )}
        <Link to="/forget">{t("auth.forgot")}</Link>
      </div>
    </AuthCard>
  );
}
