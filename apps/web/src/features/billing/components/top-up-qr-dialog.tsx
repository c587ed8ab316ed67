import { type OrderCreated, RECHARGE_QR_SIZE } from "@agentfair/contracts";
import { Button, Modal } from "antd";
import { useTranslation } from "react-i18next";
import { PayQr } from "./pay-qr";
import { usePayWatch } from "./use-pay-watch";

/**
 * The top-up QR dialog (160 px): a new top-up on /recharge, or a pending one continued from
 * /user-order. Paid: the page reloads at once (doc 1 §4).
 */
export function TopUpQrDialog({
  order,
  open,
  onClose,
  onCancel = onClose,
}: {
  order: OrderCreated | null;
  open: boolean;
  onClose: () => void;
  /** The cancel button; by default the same as closing. */
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  usePayWatch(order?.orderId, open, "immediate");
  return (
    <Modal open={open} title={t("billing.topUpQr")} onCancel={onClose} footer={null} width={360} destroyOnHidden>
      <div style={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 12 }}>
        <div data-testid="recharge-amount" style={{ fontSize: 24, fontWeight: 600, color: "#f5222d" }}>
          ¥{order?.orderAmount}
        </div>
        <PayQr order={order} size={RECHARGE_QR_SIZE} />
        <Button onClick={onCancel}>{t("common.cancel")}</Button>
      </div>
    </Modal>
  );
}
