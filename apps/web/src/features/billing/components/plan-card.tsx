import {
  discountFold,
  discountPercentOff,
  type MemberLevel,
  type PlanButtonState,
  type PlanTemplate,
  planButtonState,
} from "@agentfair/contracts";
import { CheckOutlined } from "@ant-design/icons";
import { Button, Card, Tag, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";

const BENEFIT_KEYS = ["countPerDay", "paidAgentCount", "insightPerDay", "editCount", "knowledgeSpace", "pluginsNum", "invitedNum"] as const;

/** One plan column: price, discount (折 in Chinese, % off in English), benefits and the button of doc 1 §4. */
export function PlanCard({
  plan,
  userLevel,
  onAction,
}: {
  plan: PlanTemplate;
  userLevel: MemberLevel | null;
  onAction: (plan: PlanTemplate, state: PlanButtonState) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const state = planButtonState(userLevel, plan);
  const current = userLevel === plan.memberLevel;
  return (
    <Card
      data-testid={`plan-${plan.memberLevel}`}
      style={{ height: "100%", borderColor: current ? token.colorPrimary : undefined }}
      styles={{ body: { display: "flex", flexDirection: "column", gap: 12, height: "100%" } }}
    >
      <div style={{ display: "flex", alignItems: "center", gap: 8 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {plan.name}
        </Typography.Title>
        {plan.discount < 1 && (
          <Tag color="red">{t("billing.fold", { n: discountFold(plan.discount), off: discountPercentOff(plan.discount) })}</Tag>
        )}
      </div>
      <Typography.Text type="secondary">{plan.description}</Typography.Text>
      <div>
        {plan.num > 0 ? (
          <>
            <Typography.Text style={{ fontSize: 28, fontWeight: 600 }}>¥{plan.num}</Typography.Text>
            <Typography.Text type="secondary">{t("billing.perMonth")}</Typography.Text>
          </>
        ) : (
          <Typography.Text style={{ fontSize: 28, fontWeight: 600 }}>{t("billing.free")}</Typography.Text>
        )}
      </div>
      <Button
        type={state === "upgrade" || state === "renew" ? "primary" : "default"}
        disabled={state === "enjoyed"}
        block
        data-testid={`plan-button-${plan.memberLevel}`}
        onClick={() => onAction(plan, state)}
      >
        {t(`billing.buttons.${state}`)}
      </Button>
      <ul style={{ listStyle: "none", padding: 0, margin: 0, display: "flex", flexDirection: "column", gap: 6 }}>
        {BENEFIT_KEYS.filter((k) => plan[k] > 0).map((k) => (
          <li key={k}>
            <CheckOutlined style={{ color: "#52c41a", marginRight: 6 }} />
            {t(`billing.benefits.${k}`, { count: plan[k] })}
          </li>
        ))}
        {plan.fees > 0 && (
          <li>
            <CheckOutlined style={{ color: "#52c41a", marginRight: 6 }} />
            {t("billing.benefits.fees", { n: plan.fees })}
          </li>
        )}
        {plan.types && (
          <li>
            <CheckOutlined style={{ color: "#52c41a", marginRight: 6 }} />
            {t("billing.benefits.types", {
              types: plan.types
                .split(",")
                .map((type) => t(`billing.typeNames.${type.trim()}`, { defaultValue: type.trim() }))
                .join(t("billing.listSeparator")),
            })}
          </li>
        )}
      </ul>
    </Card>
  );
}
