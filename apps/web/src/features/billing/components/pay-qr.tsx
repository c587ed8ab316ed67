import type { OrderCreated } from "@agentfair/contracts";
import { Spin, Typography } from "antd";
import { QRCodeSVG } from "qrcode.react";
import { useTranslation } from "react-i18next";

/** The payment QR of an order (payUrl); the sandbox link is also shown for desktop use. */
export function PayQr({ order, size, loading }: { order: OrderCreated | null; size: number; loading?: boolean }) {
  const { t } = useTranslation();
  if (loading || !order) {
    return (
      <div style={{ width: size, height: size, display: "grid", placeItems: "center" }}>
        <Spin />
      </div>
    );
  }
  return (
    <div style={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 8 }}>
      <QRCodeSVG value={order.payUrl} size={size} data-testid="pay-qr" />
      <Typography.Text type="secondary">{t("billing.scanToPay")}</Typography.Text>
      {order.payChannel === "sandbox" && (
        <a href={order.payUrl} target="_blank" rel="noreferrer" data-testid="pay-url">
          {t("billing.openPayPage")}
        </a>
      )}
    </div>
  );
}
