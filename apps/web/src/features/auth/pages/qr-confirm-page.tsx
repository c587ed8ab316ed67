import { Button, Result } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { HttpError } from "../../../lib/http";
import { confirmQr } from "../api/qr";
import { useUserInfo } from "../api/user-info";
import { AuthCard } from "../components/auth-card";

/** Opened from the QR code on a signed-in device; confirming signs the waiting page in. */
export function QrConfirmPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const user = useUserInfo();
  const [state, setState] = useState<{ done?: boolean; error?: string }>({});
  const confirm = async () => {
    try {
      await confirmQr(params.get("id") ?? "");
      setState({ done: true });
    } catch (e) {
      setState({ error: e instanceof HttpError ? e.message : String(e) });
    }
  };
  return (
    <AuthCard title={t("auth.qrConfirmTitle")}>
      {state.done ? (
        <Result status="success" title={t("auth.qrConfirmed")} />
      ) : state.error ? (
        <Result status="warning" title={state.error} />
      ) : (
        <Result
          status="info"
          title={user.data?.nickname || user.data?.username}
          subTitle={t("auth.qrConfirmHint", { username: user.data?.username ?? "" })}
          extra={
            <Button type="primary" size="large" onClick={confirm} disabled={!user.data}>
              {t("auth.qrConfirmButton")}
            </Button>
          }
        />
      )}
    </AuthCard>
  );
}
