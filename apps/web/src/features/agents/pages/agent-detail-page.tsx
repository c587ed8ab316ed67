import { ArrowLeftOutlined, CopyOutlined, PlayCircleOutlined } from "@ant-design/icons";
import { type AgentPublic, isUnreleased, skillCount } from "@agentfair/contracts";
import { App, Button, Card, Col, Descriptions, Empty, Result, Row, Space, Spin, Tag, Timeline, Typography } from "antd";
import dayjs from "dayjs";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { AgentIcon } from "../../../components/icon-picker/agent-icon";
import { useAgentDetail } from "../api/agent-detail";
import { executePath, skillsText } from "../components/market-card";
import { useCopyAgent } from "../components/use-copy-agent";
import { setStudioAgentId } from "../studio-session";

/** /agent-detail?id=&price=: what a hirer should know before starting (doc 1 §2). */
export function AgentDetailPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get("id");
  const detail = useAgentDetail(id);
  const copy = useCopyAgent();
  const d = detail.data;
  const blocked = !!d && isUnreleased(d.agent.agentStatus);

  useEffect(() => {
    if (blocked) message.warning(t("agents.detail.notPublished"));
  }, [blocked]);

  const back = (
    <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)} style={{ marginBottom: 12 }}>
      {t("agents.detail.back")}
    </Button>
  );
  if (!id || detail.isError) return <Empty style={{ padding: 64 }} description={t("agents.market.noData")} />;
  if (!d) return <Spin style={{ display: "block", padding: 64 }} />;
  if (blocked)
    return (
      <div style={{ maxWidth: 960, margin: "0 auto" }}>
        {back}
        <Result
          status="warning"
          title={t("agents.detail.notPublished")}
          data-testid="detail-blocked"
          extra={
            d.mine && (
              <Button
                type="primary"
                onClick={() => {
                  setStudioAgentId(d.agent.agentId);
                  navigate("/studio");
                }}
              >
                {t("agents.mine.goStudio")}
              </Button>
            )
          }
        />
      </div>
    );

  const a = d.agent;
  // The price shown is the server's: the ?price= of the link is informative only and never trusted.
  const price = a.price;
  const skills = [
    ...a.plugins.map((p) => ({ kind: t("agents.detail.plugins"), id: p })),
    ...a.externalPlugins.map((p) => ({ kind: t("agents.detail.plugins"), id: p })),
    ...a.workflows.map((p) => ({ kind: t("agents.detail.workflows"), id: p })),
    ...a.rules.map((p) => ({ kind: t("agents.detail.rules"), id: ruleLabel(a.ruleTree, p) })),
  ];
  return (
    <div style={{ maxWidth: 1080, margin: "0 auto" }}>
      {back}
      <Card>
        <div style={{ display: "flex", gap: 20, alignItems: "center", flexWrap: "wrap" }}>
          <AgentIcon icon={a.agentIcon} background={a.agentIconBackground} size={88} />
          <div style={{ flex: 1, minWidth: 240 }}>
            <Typography.Title level={3} style={{ margin: 0 }} data-testid="detail-name">
              {a.agentName}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ margin: "6px 0" }}>
              {a.agentDescription}
            </Typography.Paragraph>
            <Space wrap>
              {price > 0 ? <Tag color="orange">¥{price}</Tag> : <Tag color="green">{t("agents.detail.free")}</Tag>}
              {a.launchTags.map((tag) => (
                <Tag key={tag}>{t(`agents.tags.${tag}`, { defaultValue: tag })}</Tag>
              ))}
              {d.launchVersion && !d.launchVersionDisabled && (
                <Tag color="blue">{t("agents.detail.listedVersion", { version: d.launchVersion })}</Tag>
              )}
            </Space>
          </div>
          <Space>
            {!d.mine && d.copyable && (
              <Button icon={<CopyOutlined />} onClick={() => copy(a.agentId)} data-testid="detail-copy">
                {t("agents.detail.copy")}
              </Button>
            )}
            <Button
              type="primary"
              size="large"
              icon={<PlayCircleOutlined />}
              onClick={() => navigate(executePath({ id: a.agentId, mine: d.mine }))}
              data-testid="detail-start"
            >
              {t("agents.detail.start")}
            </Button>
          </Space>
        </div>
      </Card>
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col xs={24} md={16}>
          <Card title={t("agents.detail.usageGuide")} style={{ marginBottom: 16 }}>
            <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0 }}>{a.usageGuide || "—"}</Typography.Paragraph>
          </Card>
          <Card title={t("agents.detail.prologue")} style={{ marginBottom: 16 }}>
            <Typography.Paragraph style={{ whiteSpace: "pre-wrap" }}>{a.chatOption.prologue || "—"}</Typography.Paragraph>
            {a.chatOption.presetQuestions.length > 0 && (
              <>
                <Typography.Text type="secondary">{t("agents.detail.presetQuestions")}</Typography.Text>
                <Space direction="vertical" style={{ display: "flex", marginTop: 8 }}>
                  {a.chatOption.presetQuestions.map((q) => (
                    <Tag key={q} style={{ padding: "4px 10px", fontSize: 13 }}>
                      {q}
                    </Tag>
                  ))}
                </Space>
              </>
            )}
          </Card>
          <Card
            title={t("agents.detail.skills")}
            extra={skills.length > 0 && <span data-testid="detail-skill-num">{skillsText(t, skillCount(a))}</span>}
          >
            {skills.length === 0 ? (
              <Typography.Text type="secondary" data-testid="detail-skill-num">
                {skillsText(t, 0)}
              </Typography.Text>
            ) : (
              <Space wrap>
                {skills.map((s) => (
                  <Tag key={`${s.kind}-${s.id}`}>
                    {s.kind}: {s.id}
                  </Tag>
                ))}
              </Space>
            )}
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card style={{ marginBottom: 16 }}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t("agents.detail.price")}>{price > 0 ? `¥${price}` : t("agents.detail.free")}</Descriptions.Item>
              <Descriptions.Item label={t("agents.detail.taskNum")}>
                <span data-testid="detail-task-num">{d.taskNum}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t("agents.detail.chatCount")}>{d.chatCount}</Descriptions.Item>
              <Descriptions.Item label={t("agents.detail.creator")}>{d.creator}</Descriptions.Item>
            </Descriptions>
          </Card>
          <Card title={t("agents.detail.versions")}>
            <Timeline
              items={d.versions.map((v) => ({
                content: (
                  <div>
                    <Typography.Text strong>v{v.versionNo}</Typography.Text>{" "}
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {dayjs(v.createdAt).format("YYYY-MM-DD HH:mm")}
                    </Typography.Text>
                    {v.notes && <div>{v.notes}</div>}
                  </div>
                ),
              }))}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}

/** A bound rule, directory or project by its name in the agent's ruleTree. */
function ruleLabel(tree: AgentPublic["ruleTree"], id: string) {
  for (const p of tree) {
    if (p.id === id) return p.name;
    for (const d of p.ruleDirs) {
      if (d.id === id) return d.name || p.name;
      const r = d.rules.find((x) => x.id === id);
      if (r) return `${r.name} (${r.ruleKey})`;
    }
  }
  return id;
}
