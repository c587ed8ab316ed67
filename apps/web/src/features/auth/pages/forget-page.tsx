import { Alert, App, Button, Form, Input } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { HttpError } from "../../../lib/http";
import { tenantDomain } from "../../../lib/tenant";
import { resetPassword } from "../api/check-code";
import { AuthCard } from "../components/auth-card";
import { CheckCodeInput } from "../components/check-code-input";
import { contactRule, passwordRules } from "../components/rules";

export function ForgetPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const contact = Form.useWatch("contact", form);
  const [error, setError] = useState<string>();
  const onFinish = async (v: { contact: string; checkCode: string; password: string }) => {
    setError(undefined);
    try {
      await resetPassword({ ...v, domain: tenantDomain() });
      message.success(t("auth.resetDone"));
      navigate("/login");
    } catch (e) {
      setError(e instanceof HttpError ? e.message : String(e));
    }
  };
  return (
    <AuthCard title={t("auth.forgetTitle")}>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
        <Form.Item name="contact" label={t("auth.contact")} rules={[contactRule(t)]}>
          <Input />
        </Form.Item>
        <Form.Item name="checkCode" label={t("auth.checkCode")} rules={[{ required: true, message: t("auth.checkCodeRequired") }]}>
          <CheckCodeInput contact={contact} purpose="reset" />
        </Form.Item>
        <Form.Item name="password" label={t("auth.newPassword")} rules={passwordRules(t)}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large">
          {t("auth.resetButton")}
        </Button>
        <div style={{ marginTop: 16, textAlign: "center" }}>
          <Link to="/login">{t("auth.toLogin")}</Link>
        </div>
      </Form>
    </AuthCard>
  );
}
