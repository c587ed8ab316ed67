import { Alert, Button, Form, Input } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { HttpError } from "../../../lib/http";
import { tenantDomain } from "../../../lib/tenant";
import { register } from "../api/check-code";
import { useTenantInfo } from "../api/tenant-info";
import { AuthCard } from "../components/auth-card";
import { CheckCodeInput } from "../components/check-code-input";
import { contactRule, passwordRules } from "../components/rules";
import { useSignedIn } from "./login-page";

export function RegisterPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const contact = Form.useWatch("contact", form);
  const signedIn = useSignedIn();
  const [error, setError] = useState<string>();
  // A tenant that takes no sign-ups says so before anyone fills the form in.
  const closed = useTenantInfo(tenantDomain()).data?.openRegistration === false;
  const onFinish = async (v: { username: string; password: string; contact: string; checkCode: string }) => {
    setError(undefined);
    try {
      await signedIn(await register({ ...v, domain: tenantDomain() }));
    } catch (e) {
      setError(e instanceof HttpError ? e.message : String(e));
    }
  };
  return (
    <AuthCard title={t("auth.register")}>
      {closed && (
        <Alert type="info" showIcon title={t("auth.registrationClosed")} style={{ marginBottom: 16 }} data-testid="register-closed" />
      )}
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} disabled={closed}>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="register-error" />}
        <Form.Item
          name="username"
          label={t("auth.registerUsername")}
          rules={[{ required: true, pattern: /^[A-Za-z0-9_\u4e00-\u9fa5]{2,32}$/, message: t("auth.registerUsernameRule") }]}
        >
          <Input autoComplete="username" />
        </Form.Item>
        <Form.Item name="contact" label={t("auth.contact")} rules={[contactRule(t)]}>
          <Input autoComplete="email" />
        </Form.Item>
        <Form.Item name="checkCode" label={t("auth.checkCode")} rules={[{ required: true, message: t("auth.checkCodeRequired") }]}>
          <CheckCodeInput contact={contact} purpose="register" disabled={closed} />
        </Form.Item>
        <Form.Item name="password" label={t("auth.password")} rules={passwordRules(t)}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t("auth.confirmPassword")}
          dependencies={["password"]}
          rules={[
            { required: true, message: t("auth.passwordRequired") },
            ({ getFieldValue }) => ({
              validator: (_, v) =>
                v === getFieldValue("password") ? Promise.resolve() : Promise.reject(new Error(t("auth.passwordMismatch"))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large">
          {t("auth.registerButton")}
        </Button>
        <div style={{ marginTop: 16, textAlign: "center" }}>
          <Link to="/login">{t("auth.toLogin")}</Link>
        </div>
      </Form>
    </AuthCard>
  );
}
