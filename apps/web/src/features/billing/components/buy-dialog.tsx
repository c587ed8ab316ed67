import {
  BUY_QR_SIZE,
  type DurationConfig,
  discountFold,
  discountPercentOff,
  type MemberLevel,
  membershipPriceCents,
  type OrderCreated,
  type PlanTemplate,
  planButtonState,
} from "@agentfair/contracts";
import { Form, Input, Modal, Radio, Select, Space, Typography } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { buyMembers } from "../api/buy-members";
import { createOrder } from "../api/create-order";
import { useMonthConfigs } from "../api/month-config";
import { PayQr } from "./pay-qr";
import { usePayWatch } from "./use-pay-watch";

/** 'open or upgrade membership': plan, duration, the payment QR (112 px) and 3000 ms polling. */
export function BuyDialog({
  open,
  plans,
  initialPlanId,
  userLevel,
  groups,
  onClose,
}: {
  open: boolean;
  plans: PlanTemplate[];
  initialPlanId: string | null;
  userLevel: MemberLevel | null;
  groups: { id: string; groupName: string }[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const durations = useMonthConfigs();
  const buyable = plans.filter((p) => p.num > 0 && planButtonState(userLevel, p) !== "enjoyed");
  const [planId, setPlanId] = useState<string | null>(initialPlanId);
  const [configId, setConfigId] = useState<string | null>(null);
  const [groupName, setGroupName] = useState("");
  const [groupId, setGroupId] = useState<string | undefined>(undefined);
  const [order, setOrder] = useState<OrderCreated | null>(null);
  const [loading, setLoading] = useState(false);
  const session = useRef(randomKey());

  useEffect(() => {
    if (open) {
      setPlanId(initialPlanId);
      setOrder(null);
      session.current = randomKey();
    }
  }, [open, initialPlanId]);
  useEffect(() => {
    if (!configId && durations.data?.[0]) setConfigId(durations.data[0].id);
  }, [durations.data]);

  const plan = buyable.find((p) => p.id === planId) ?? null;
  const duration = durations.data?.find((d) => d.id === configId) ?? null;
  const team = plan?.category === "ENTERPRISE";

  // An order for each choice of plan, duration and team: the server answers with the caller's open
  // order for the same choice, and leaves orders of abandoned choices to expire.
  const choice = `${planId}|${configId}|${team ? groupId || groupName : ""}`;
  useEffect(() => {
    if (!open || !plan || !duration) return;
    let live = true;
    setLoading(true);
    const timer = window.setTimeout(async () => {
      const renewUpgrade = planButtonState(userLevel, plan) === "renew" ? "RENEW" : "UPGRADE";
      const idempotencyKey = `${session.current}-${hashText(choice)}`;
      try {
        const created = team
          ? await buyMembers({
              orderTemplateId: plan.id,
              renewUpgrade,
              configId: duration.id,
              groupId,
              groupName: groupId ? undefined : groupName || undefined,
              idempotencyKey,
            })
          : await createOrder(plan.id, { renewUpgrade, configId: duration.id, idempotencyKey });
        if (live) setOrder(created);
      } catch {
        if (live) setOrder(null);
      } finally {
        if (live) setLoading(false);
      }
    }, 300);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [open, choice, !!plan, !!duration]);

  usePayWatch(order?.orderId, open, "delayed");
  const price = useMemo(
    () =>
      plan && duration
        ? membershipPriceCents(Math.round(plan.num * 100), duration.monthNum, duration.priceDiscount, plan.discount) / 100
        : null,
    [plan, duration],
  );

  return (
    <Modal open={open} title={t("billing.buyTitle")} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label={t("billing.plan")}>
          <Radio.Group value={planId} onChange={(e) => setPlanId(e.target.value)} optionType="button" buttonStyle="solid">
            {buyable.map((p) => (
              <Radio.Button key={p.id} value={p.id} data-testid={`buy-plan-${p.memberLevel}`}>
                {p.name}
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item label={t("billing.duration")}>
          <Radio.Group value={configId} onChange={(e) => setConfigId(e.target.value)} optionType="button">
            {(durations.data ?? []).map((d: DurationConfig) => (
              <Radio.Button key={d.id} value={d.id}>
                {t("billing.months", { count: d.monthNum })}
                {d.priceDiscount < 1
                  ? ` · ${t("billing.fold", { n: discountFold(d.priceDiscount), off: discountPercentOff(d.priceDiscount) })}`
                  : ""}
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        {team && (
          <Form.Item label={groups.length ? t("billing.group") : t("billing.groupName")}>
            {groups.length ? (
              <Select
                allowClear
                value={groupId}
                onChange={setGroupId}
                options={groups.map((g) => ({ value: g.id, label: g.groupName }))}
                placeholder={t("billing.groupNamePlaceholder")}
              />
            ) : (
              <Input
                value={groupName}
                maxLength={64}
                onChange={(e) => setGroupName(e.target.value)}
                placeholder={t("billing.groupNamePlaceholder")}
              />
            )}
          </Form.Item>
        )}
      </Form>
      <Space align="start" size="large" style={{ width: "100%", justifyContent: "center" }}>
        <PayQr order={order} size={BUY_QR_SIZE} loading={loading} />
        <div>
          <Typography.Text type="secondary">{t("billing.payable")}</Typography.Text>
          <div data-testid="order-amount" style={{ fontSize: 28, fontWeight: 600, color: "#f5222d" }}>
            ¥{order?.orderAmount ?? price ?? "-"}
          </div>
        </div>
      </Space>
    </Modal>
  );
}

/** Idempotency keys (≤ 64 characters): a random dialog session plus a hash of the choice. */
export const randomKey = () => Array.from({ length: 24 }, () => Math.floor(Math.random() * 36).toString(36)).join("");
export function hashText(text: string) {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (h * 33) ^ text.charCodeAt(i);
  return (h >>> 0).toString(36);
}
