import {
  BENEFIT_CODE_LEVELS,
  levelCategory,
  type MemberLevel,
  type PlanButtonState,
  type PlanCategory,
  type PlanTemplate,
} from "@agentfair/contracts";
import { CrownOutlined, GiftOutlined, WalletOutlined } from "@ant-design/icons";
import { Button, Card, Col, Empty, Row, Space, Spin, Statistic, Tabs, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { usePlatformSettings } from "../../auth/api/platform-settings";
import { useUserInfo } from "../../auth/api/user-info";
import { getToken } from "../../../lib/storage";
import { useMemberTemplates } from "../api/member-templates";
import { BenefitDialog } from "../components/benefit-dialog";
import { BuyDialog } from "../components/buy-dialog";
import { EnterpriseDialog } from "../components/enterprise-dialog";
import { PlanCard } from "../components/plan-card";
import { RechargeDialogs } from "../components/recharge-dialogs";
import { TransferForm } from "../components/transfer-form";

/** /recharge: membership, plans, top-up, benefit codes (doc 1 §2, §4). Viewable signed out. */
export function RechargePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = !!getToken();
  const user = useUserInfo();
  const settings = usePlatformSettings();
  const level: MemberLevel | null = signedIn ? (user.data?.userMemberLevel.memberLevel ?? null) : null;
  const paidCategory = level ? levelCategory(level) : null;
  // The personal/team switch only for FREE or signed-out users; paid users see their own category.
  const showSwitch = !paidCategory;
  const [tab, setTab] = useState<PlanCategory>("PERSONAL");
  const category: PlanCategory = paidCategory ?? tab;
  const plans = useMemberTemplates(category);
  const [buyPlan, setBuyPlan] = useState<string | null>(null);
  const [buyOpen, setBuyOpen] = useState(false);
  const [rechargeOpen, setRechargeOpen] = useState(false);
  const [benefitOpen, setBenefitOpen] = useState(false);
  const [enterpriseOpen, setEnterpriseOpen] = useState(false);
  const [transferOpen, setTransferOpen] = useState(false);

  const onPlan = (plan: PlanTemplate, state: PlanButtonState) => {
    if (!signedIn) {
      navigate(`/login?redirect=${encodeURIComponent("/recharge")}`);
      return;
    }
    if (state === "use") {
      navigate("/index");
      return;
    }
    if (state === "enjoyed") return;
    setBuyPlan(plan.id);
    setBuyOpen(true);
  };
  const endDate = user.data?.userMemberLevel.endDate;
  const isPaid = !!paidCategory;
  const showBenefit = signedIn && !!level && BENEFIT_CODE_LEVELS.includes(level);

  return (
    <div style={{ maxWidth: 1200, margin: "0 auto", display: "flex", flexDirection: "column", gap: 24 }}>
      <Card data-testid="member-header">
        <Row gutter={24} align="middle">
          <Col flex="auto">
            <Space size={48} wrap>
              <Statistic
                title={t("billing.memberLevel")}
                value={level ? t(`billing.levels.${level}`) : "-"}
                prefix={<CrownOutlined />}
                valueStyle={{ fontSize: 20 }}
                data-testid="member-level"
              />
              <Statistic
                title={t("billing.validUntil")}
                value={endDate ? dayjs(endDate).format("YYYY-MM-DD") : level && level !== "FREE" ? t("billing.forever") : "-"}
                valueStyle={{ fontSize: 20 }}
              />
              <Statistic
                title={t("billing.balance")}
                value={signedIn && user.data ? user.data.userInfo.accountBalance.toFixed(2) : "-"}
                prefix={<WalletOutlined />}
                valueStyle={{ fontSize: 20 }}
                data-testid="member-balance"
              />
            </Space>
          </Col>
          <Col>
            <Space wrap>
              {signedIn && <Button onClick={() => navigate("/user-order?tab=usage")}>{t("billing.consumptionDetails")}</Button>}
              {showBenefit && (
                <Button icon={<GiftOutlined />} onClick={() => setBenefitOpen(true)} data-testid="benefit-button">
                  {t("billing.enterBenefitCode")}
                </Button>
              )}
              {signedIn && isPaid && (
                <Button type="primary" onClick={() => setRechargeOpen(true)} data-testid="recharge-button">
                  {t("billing.topUp")}
                </Button>
              )}
              {signedIn && settings.data?.bankTransferEnabled && (
                <Button onClick={() => setTransferOpen(true)}>{t("billing.bankTransfer")}</Button>
              )}
            </Space>
          </Col>
        </Row>
      </Card>

      {showSwitch && (
        <Tabs
          centered
          activeKey={tab}
          onChange={(k) => setTab(k as PlanCategory)}
          items={[
            { key: "PERSONAL", label: t("billing.personal") },
            { key: "ENTERPRISE", label: t("billing.team") },
          ]}
        />
      )}
      {plans.isLoading ? (
        <Spin />
      ) : !plans.data?.length ? (
        <Empty description={t("common.noData")} />
      ) : (
        <Row gutter={[16, 16]} align="stretch">
          {plans.data.map((p) => (
            <Col key={p.id} xs={24} md={12} lg={category === "ENTERPRISE" ? 8 : 24 / Math.min(plans.data.length, 4)}>
              <PlanCard plan={p} userLevel={level} onAction={onPlan} />
            </Col>
          ))}
          {category === "ENTERPRISE" && (
            <Col xs={24} md={12} lg={8}>
              <Card style={{ height: "100%" }} styles={{ body: { display: "flex", flexDirection: "column", gap: 12 } }}>
                <Typography.Title level={4} style={{ margin: 0 }}>
                  {t("billing.privateDeployment")}
                </Typography.Title>
                <Typography.Text type="secondary">{t("billing.privateDeploymentDesc")}</Typography.Text>
                <Typography.Text style={{ fontSize: 28, fontWeight: 600 }}>{t("billing.customPrice")}</Typography.Text>
                <Button block onClick={() => setEnterpriseOpen(true)} data-testid="enterprise-contact">
                  {t("billing.contactUs")}
                </Button>
              </Card>
            </Col>
          )}
        </Row>
      )}

      {signedIn && (
        <>
          <BuyDialog
            open={buyOpen}
            plans={plans.data ?? []}
            initialPlanId={buyPlan}
            userLevel={level}
            groups={user.data?.groups ?? []}
            onClose={() => setBuyOpen(false)}
          />
          <RechargeDialogs open={rechargeOpen} onClose={() => setRechargeOpen(false)} />
          <BenefitDialog open={benefitOpen} onClose={() => setBenefitOpen(false)} />
          <TransferForm open={transferOpen} onClose={() => setTransferOpen(false)} />
        </>
      )}
      <EnterpriseDialog open={enterpriseOpen} onClose={() => setEnterpriseOpen(false)} />
    </div>
  );
}
