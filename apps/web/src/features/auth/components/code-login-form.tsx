import { MailOutlined } from "@ant-design/icons";
import { Alert, Button, Form, Input } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { HttpError } from "../../../lib/http";
import { tenantDomain } from "../../../lib/tenant";
import { codeLogin } from "../api/check-code";
import { useSignedIn } from "../pages/login-page";
import { CheckCodeInput } from "./check-code-input";
import { contactRule } from "./rules";

export function CodeLoginForm() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const contact = Form.useWatch("contact", form);
  const signedIn = useSignedIn();
  const [error, setError] = useState<string>();
  const onFinish = async (v: { contact: string; checkCode: string }) => {
    setError(undefined);
    try {
      await signedIn(await codeLogin({ ...v, domain: tenantDomain() }));
    } catch (e) {
      setError(e instanceof HttpError ? e.message : String(e));
    }
  };
  return (
    <Form form={form} layout="vertical" size="large" onFinish={onFinish} requiredMark={false}>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Form.Item name="contact" rules={[contactRule(t)]}>
        <Input prefix={<MailOutlined />} placeholder={t("auth.contact")} />
      </Form.Item>
      <Form.Item name="checkCode" rules={[{ required: true, message: t("auth.checkCodeRequired") }]}>
        <CheckCodeInput contact={contact} purpose="login" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block>
        {t("auth.loginButton")}
      </Button>
    </Form>
  );
}
