import { RECHARGE_MAX_YUAN, RECHARGE_MIN_YUAN, type OrderCreated } from "@agentfair/contracts";
import { type ButtonProps, Card, Col, InputNumber, Modal, Row, Space, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { rechargeByAmount } from "../api/recharge-by-amount";
import { rechargeByTemplate } from "../api/recharge-by-template";
import { useRechargeTemplates } from "../api/recharge-templates";
import { randomKey } from "./buy-dialog";
import { TopUpQrDialog } from "./top-up-qr-dialog";

/** The top-up choice dialog (amount tiles or a custom amount), then the top-up QR dialog (160 px). */
export function RechargeDialogs({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const options = useRechargeTemplates(open);
  const [selected, setSelected] = useState<string | null>(null);
  const [custom, setCustom] = useState<number | null>(null);
  const [order, setOrder] = useState<OrderCreated | null>(null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState(randomKey());
  useEffect(() => {
    if (open) {
      setSelected(null);
      setCustom(null);
      setOrder(null);
      setKey(randomKey());
    }
  }, [open]);

  const pay = async () => {
    setBusy(true);
    try {
      const idem = `${key}-${selected ?? custom}`;
      setOrder(custom ? await rechargeByAmount(custom, idem) : await rechargeByTemplate(selected as string, idem));
    } catch {
      // the http client has shown the server's msg
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Modal
        open={open && !order}
        title={t("billing.topUpChoice")}
        onCancel={onClose}
        onOk={pay}
        okText={t("billing.nextStep")}
        okButtonProps={{ disabled: !selected && !custom, loading: busy, "data-testid": "recharge-pay" } as ButtonProps}
        destroyOnHidden
      >
        <Row gutter={[12, 12]}>
          {(options.data ?? []).map((o) => (
            <Col span={8} key={o.id}>
              <Card
                hoverable
                data-testid={`recharge-tile-${o.amount}`}
                onClick={() => {
                  setSelected(o.id);
                  setCustom(null);
                }}
                style={{
                  textAlign: "center",
                  borderColor: selected === o.id ? "#1677ff" : undefined,
                  background: selected === o.id ? "#e6f4ff" : undefined,
                }}
                styles={{ body: { padding: 16 } }}
              >
                <Typography.Text style={{ fontSize: 20, fontWeight: 600 }}>¥{o.amount}</Typography.Text>
              </Card>
            </Col>
          ))}
        </Row>
        <Space style={{ marginTop: 16 }}>
          <Typography.Text>{t("billing.customAmount")}</Typography.Text>
          <InputNumber
            min={RECHARGE_MIN_YUAN}
            max={RECHARGE_MAX_YUAN}
            precision={2}
            value={custom}
            placeholder={t("billing.customAmountPlaceholder")}
            style={{ width: 200 }}
            onChange={(v) => {
              setCustom(v);
              if (v) setSelected(null);
            }}
          />
        </Space>
      </Modal>
      <TopUpQrDialog order={order} open={open && !!order} onClose={onClose} onCancel={() => setOrder(null)} />
    </>
  );
}
