import type { OrderStatus } from "@agentfair/contracts";
import { Tag } from "antd";
import { useTranslation } from "react-i18next";

const COLORS: Record<OrderStatus, string> = { PENDING: "gold", PAID: "green", CANCELLED: "default", REFUNDED: "purple", FROZEN: "blue" };

export function OrderStatusTag({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return <Tag color={COLORS[status]}>{t(`billing.order.statuses.${status}`)}</Tag>;
}
