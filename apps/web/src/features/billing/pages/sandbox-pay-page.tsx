import { Button, Card, Descriptions, Result, Space, Spin, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { orderTitleText } from "../order-title";
import { decideSandboxPay, fetchSandboxPay, type SandboxPayInfo } from "../api/sandbox-pay";

/** The sandbox provider's pay page (the QR's target): the payer confirms or declines. Public. */
export function SandboxPayPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const orderNo = params.get("orderNo") ?? "";
  const token = params.get("t") ?? "";
  const info = useQuery({
    queryKey: ["billing", "sandbox", orderNo, token],
    queryFn: () => fetchSandboxPay(orderNo, token),
    enabled: !!orderNo && !!token,
    retry: false,
  });
  const [result, setResult] = useState<SandboxPayInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const decide = async (decision: "confirm" | "decline") => {
    setBusy(true);
    try {
      setResult(await decideSandboxPay(orderNo, token, decision));
    } catch {
      // the http client has shown the server's msg
    } finally {
      setBusy(false);
    }
  };
  const current = result ?? info.data;
  return (
    <div style={{ minHeight: "100vh", display: "grid", placeItems: "center", background: "#f5f5f5", padding: 16 }}>
      <Card style={{ width: 420, maxWidth: "100%" }} title={t("billing.sandbox.title")}>
        {info.isLoading ? (
          <Spin />
        ) : !current ? (
          <Result status="warning" title={t("billing.sandbox.invalid")} />
        ) : current.orderStatus === "PAID" ? (
          <Result
            status="success"
            title={t("billing.sandbox.paid")}
            subTitle={`¥${current.orderAmount.toFixed(2)} · ${current.orderNo}`}
            data-testid="sandbox-paid"
          />
        ) : current.orderStatus === "CANCELLED" ? (
          <Result status="info" title={t("billing.sandbox.declined")} />
        ) : current.orderStatus !== "PENDING" ? (
          <Result status="info" title={t("billing.sandbox.status", { status: t(`billing.order.statuses.${current.orderStatus}`) })} />
        ) : (
          <Space direction="vertical" size="large" style={{ width: "100%" }}>
            <Typography.Text type="secondary">{t("billing.sandbox.subtitle")}</Typography.Text>
            <Descriptions column={1} bordered size="small">
              <Descriptions.Item label={t("billing.sandbox.orderNo")}>{current.orderNo}</Descriptions.Item>
              <Descriptions.Item label={t("billing.sandbox.subject")}>{orderTitleText(current.subject, t)}</Descriptions.Item>
              <Descriptions.Item label={t("billing.sandbox.amount")}>
                <Typography.Text strong style={{ color: "#f5222d", fontSize: 18 }}>
                  ¥{current.orderAmount.toFixed(2)}
                </Typography.Text>
              </Descriptions.Item>
            </Descriptions>
            <Button type="primary" size="large" block loading={busy} onClick={() => decide("confirm")} data-testid="sandbox-confirm">
              {t("billing.sandbox.confirm")}
            </Button>
            <Button size="large" block disabled={busy} onClick={() => decide("decline")}>
              {t("billing.sandbox.decline")}
            </Button>
          </Space>
        )}
      </Card>
    </div>
  );
}
