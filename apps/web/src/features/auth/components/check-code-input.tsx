import { isEmail, isPhone } from "@agentfair/contracts";
import { App, Button, Input, Space } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { tenantDomain } from "../../../lib/tenant";
import { sendCheckCode } from "../api/check-code";

/** A check-code input with its send button and a 60 s resend countdown. */
export function CheckCodeInput(props: {
  value?: string;
  onChange?: (v: string) => void;
  contact: string | undefined;
  purpose: "register" | "login" | "reset";
  /** As the form's disabled: a Button's own `disabled` would override the form's. */
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [seconds, setSeconds] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [seconds]);
  const contact = props.contact?.trim() ?? "";
  const send = async () => {
    if (!isEmail(contact) && !isPhone(contact)) {
      message.warning(t("auth.contactRequired"));
      return;
    }
    setSending(true);
    try {
      await sendCheckCode({ contact, purpose: props.purpose, domain: tenantDomain() });
      message.success(t("auth.codeSent"));
      setSeconds(60);
    } catch {
      // the http client has shown the server's message
    } finally {
      setSending(false);
    }
  };
  return (
    <Space.Compact style={{ width: "100%" }}>
      <Input value={props.value} onChange={(e) => props.onChange?.(e.target.value)} placeholder={t("auth.checkCode")} maxLength={8} />
      <Button onClick={send} disabled={props.disabled || seconds > 0} loading={sending} style={{ width: 130 }}>
        {seconds > 0 ? t("auth.resend", { seconds }) : t("auth.sendCode")}
      </Button>
    </Space.Compact>
  );
}
