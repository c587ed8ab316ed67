import { FileSearchOutlined, MessageOutlined } from "@ant-design/icons";
import { INSIGHT_AGENT_TYPE, INSIGHT_REPORT_PAGE_TYPE } from "@agentfair/contracts";
import { Button, Card, Col, Empty, List, Row, Space, Spin, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { AgentAvatar } from "../../../components/chat/agent-avatar";
import { openReport } from "../../../components/chat/insight-steps";
import { PageTitle } from "../../../components/page-title";
import { relativeTime } from "../../../components/relative-time";
import { useLaunchPage } from "../../agents/api/launch-page";
import { useMinePage } from "../../agents/api/mine-page";
import { MarketCard } from "../../agents/components/market-card";
import { useCopyAgent } from "../../agents/components/use-copy-agent";
import { useRecentReports } from "../api/reports";
import { ChatInsightPanel } from "../components/chat-insight-panel";
import { statusColor } from "../components/status";

/** The report agent page of an agent (doc 1 §2): projectId, name and type=10, opened in a new tab. */
export const agentReportsUrl = (a: { id: string; agentName: string }) =>
  `/insight-report?${new URLSearchParams({ projectId: a.id, name: a.agentName, type: String(INSIGHT_REPORT_PAGE_TYPE) })}`;

/** /insight: the caller's report agents (cards without edit) and their recent reports. */
export function InsightPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mine = useMinePage({ page: 1 });
  const recent = useRecentReports();
  const agents = (mine.data?.list ?? []).filter((a) => a.agentType === INSIGHT_AGENT_TYPE);
  // The special categories' templates: report agents listed in the marketplace by others.
  const market = useLaunchPage({});
  const listed = (market.data?.list ?? []).filter((a) => a.agentType === INSIGHT_AGENT_TYPE);
  const templates = listed.filter((a) => !a.mine);
  const copy = useCopyAgent();
  return (
    <div style={{ maxWidth: 1200, margin: "0 auto" }}>
      <Card title={<PageTitle title={t("insight.title")} subtitle={t("insight.subtitle")} />}>
        <Typography.Title level={5}>{t("insight.templates")}</Typography.Title>
        <Typography.Paragraph type="secondary">{t("insight.templatesHint")}</Typography.Paragraph>
        {market.isLoading ? (
          <Spin />
        ) : templates.length === 0 ? (
          // Those who listed every template themselves (the demo's administrator) are told so, not "none".
          <Empty description={t(listed.length ? "insight.onlyOwnTemplates" : "insight.noTemplates")} />
        ) : (
          <Row gutter={[16, 16]} data-testid="insight-templates" style={{ marginBottom: 24 }}>
            {templates.map((a) => (
              <Col xs={24} md={12} lg={8} xl={6} key={a.id}>
                <MarketCard agent={a} taskNum={a.taskNum} onCopy={() => copy(a.id)} />
              </Col>
            ))}
          </Row>
        )}
        <Typography.Title level={5}>{t("insight.agents")}</Typography.Title>
        {mine.isLoading ? (
          <Spin />
        ) : agents.length === 0 ? (
          <Empty description={t("insight.noAgents")} />
        ) : (
          <Row gutter={[16, 16]}>
            {agents.map((a) => (
              <Col xs={24} md={12} lg={8} key={a.id}>
                <Card size="small" data-testid="insight-agent-card" style={{ height: "100%" }}>
                  <Space align="start">
                    <AgentAvatar icon={a.agentIcon} background={a.agentIconBackground} size={44} />
                    <div style={{ minWidth: 0 }}>
                      <Space size={4} wrap>
                        <Typography.Text strong>{a.agentName}</Typography.Text>
                        {a.insightCategory && (
                          <Tag color="purple" data-testid="insight-category">
                            {a.insightCategory}
                          </Tag>
                        )}
                      </Space>
                      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
                        {a.agentDescription}
                      </Typography.Paragraph>
                    </div>
                  </Space>
                  <Space style={{ marginTop: 12 }}>
                    <Button type="primary" icon={<MessageOutlined />} onClick={() => navigate(`/agent-execute?id=${a.id}&source=1`)}>
                      {t("insight.ask")}
                    </Button>
                    <Button icon={<FileSearchOutlined />} onClick={() => openReport(agentReportsUrl(a))}>
                      {t("insight.reports")}
                    </Button>
                  </Space>
                </Card>
              </Col>
            ))}
          </Row>
        )}
        <Typography.Title level={5} style={{ marginTop: 24 }}>
          {t("insight.recent")}
        </Typography.Title>
        <List
          locale={{ emptyText: <Empty description={t("insight.noReports")} /> }}
          dataSource={recent.data ?? []}
          renderItem={(r) => (
            <List.Item
              data-testid="insight-report-item"
              extra={<Typography.Text type="secondary">{relativeTime(r.createdTime)}</Typography.Text>}
            >
              <List.Item.Meta
                title={<Link to={`/insight-detail?id=${r.id}`}>{r.title}</Link>}
                description={
                  <Space>
                    <Tag color={statusColor[r.status]}>{t(`insight.status.${r.status}`)}</Tag>
                    {r.category && (
                      <Tag color="purple" title={t(`insight.categories.${r.category}`, r.category)}>
                        {r.category}
                      </Tag>
                    )}
                    <span>{r.agentName}</span>
                  </Space>
                }
              />
            </List.Item>
          )}
        />
      </Card>
      <Card title={t("insight.chat.title")} style={{ marginTop: 16 }}>
        <ChatInsightPanel />
      </Card>
    </div>
  );
}
