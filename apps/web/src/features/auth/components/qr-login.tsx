import { Button, Result, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { tenantDomain } from "../../../lib/tenant";
import { createQrTicket, qrStatus, type QrTicket } from "../api/qr";
import { useSignedIn } from "../pages/login-page";

/** Shows a one-time QR ticket and polls it until a signed-in device confirms. */
export function QrLogin() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const [ticket, setTicket] = useState<QrTicket>();
  const [expired, setExpired] = useState(false);
  const refresh = () => {
    setExpired(false);
    createQrTicket(tenantDomain())
      .then(setTicket)
      .catch(() => setExpired(true));
  };
  useEffect(refresh, []);
  useEffect(() => {
    if (!ticket || expired) return;
    const timer = setInterval(async () => {
      const status = await qrStatus(ticket).catch(() => null);
      if (status?.status === "EXPIRED") setExpired(true);
      if (status?.status === "CONFIRMED" && status.token && status.reportToken) {
        clearInterval(timer);
        await signedIn({ token: status.token, reportToken: status.reportToken });
      }
    }, 2000);
    return () => clearInterval(timer);
  }, [ticket, expired]);

  if (expired)
    return <Result status="warning" title={t("auth.qrExpired")} extra={<Button onClick={refresh}>{t("auth.qrRefresh")}</Button>} />;
  if (!ticket) return <Spin style={{ display: "block", margin: "48px auto" }} />;
  return (
    <div style={{ textAlign: "center" }}>
      <img src={ticket.img} alt="QR" width={200} height={200} data-testid="qr-image" data-url={ticket.url} />
      <Typography.Paragraph type="secondary">{t("auth.qrHint")}</Typography.Paragraph>
    </div>
  );
}
