import { CheckCircleOutlined, CopyOutlined, StarFilled, ThunderboltOutlined } from "@ant-design/icons";
import type { AgentCard } from "@agentfair/contracts";
import { Button, Card, Tag, Tooltip, Typography } from "antd";
import { useMemo } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { AgentIcon } from "../../../components/icon-picker/agent-icon";

/** The star rating is decorative, generated on the client (doc 1 §3); stable per agent. */
function star(id: string) {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return (40 + ((h >> 3) % 11)) / 10;
}

/** The skills line, the same on the card and the detail page: the real count of bound skills. */
export const skillsText = (t: TFunction, count: number) =>
  count > 0 ? t("agents.market.skillNum", { count }) : t("agents.detail.noSkills");

export const executePath = (agent: { id: string; mine: boolean }) => `/agent-execute?id=${agent.id}&source=${agent.mine ? 1 : 0}`;
export const detailPath = (agent: { id: string; price: number }) => `/agent-detail?id=${agent.id}&price=${agent.price}`;

/** A marketplace card: icon, name, description, free badge, task count, copy and start. */
export function MarketCard({ agent, taskNum, onCopy }: { agent: AgentCard; taskNum: number; onCopy: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const stars = useMemo(() => star(agent.id), [agent.id]);
  return (
    <Card
      hoverable
      onClick={() => navigate(detailPath(agent))}
      styles={{ body: { padding: 16, display: "flex", flexDirection: "column", gap: 10, height: "100%" } }}
      style={{ height: "100%" }}
      data-testid="market-card"
    >
      <div style={{ display: "flex", gap: 12, alignItems: "center" }}>
        <AgentIcon icon={agent.agentIcon} background={agent.agentIconBackground} size={52} />
        <div style={{ minWidth: 0, flex: 1 }}>
          <Typography.Text strong ellipsis style={{ fontSize: 16, display: "block" }} data-testid="agent-name">
            {agent.agentName}
          </Typography.Text>
          <div style={{ display: "flex", flexWrap: "wrap", rowGap: 4, columnGap: 8, alignItems: "center", marginTop: 4 }}>
            {agent.price > 0 ? <Tag color="orange">¥{agent.price}</Tag> : <Tag color="green">{t("agents.market.free")}</Tag>}
            {/* A report template's special category, by the name the member plans use (doc 1 §9). */}
            {agent.insightCategory && (
              <Tooltip title={t(`insight.categories.${agent.insightCategory}`, agent.insightCategory)}>
                <Tag color="purple" data-testid="insight-category">
                  {agent.insightCategory}
                </Tag>
              </Tooltip>
            )}
            <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: "nowrap" }}>
              <StarFilled style={{ color: "#fadb14" }} /> {stars.toFixed(1)}
            </Typography.Text>
          </div>
        </div>
      </div>
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, minHeight: 44 }}>
        {agent.agentDescription}
      </Typography.Paragraph>
      {/* Each count stays on one line: a longer one (English, four digits) moves the other below it. */}
      <div style={{ display: "flex", flexWrap: "wrap", columnGap: 12, rowGap: 2, fontSize: 12, color: "#86909c", whiteSpace: "nowrap" }}>
        <span data-testid="task-num">
          <CheckCircleOutlined /> {t("agents.market.taskNum", { count: taskNum })}
        </span>
        <span data-testid="skill-num">
          <ThunderboltOutlined /> {skillsText(t, agent.skillNum)}
        </span>
      </div>
      <div style={{ display: "flex", gap: 8, marginTop: "auto" }} onClick={(e) => e.stopPropagation()}>
        {/* Copies include the persona: offered only when the owner allowed them. */}
        {!agent.mine && agent.copyable && (
          <Tooltip title={t("agents.market.copyAndEdit")}>
            <Button icon={<CopyOutlined />} onClick={onCopy} aria-label={t("agents.market.copyAndEdit")} data-testid="copy-agent" />
          </Tooltip>
        )}
        <Button type="primary" block onClick={() => navigate(executePath(agent))}>
          {agent.mine ? t("agents.market.useNow") : t("agents.market.hireNow")}
        </Button>
      </div>
    </Card>
  );
}
