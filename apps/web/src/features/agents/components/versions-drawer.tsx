import { diffSnapshots } from "@agentfair/contracts";
import { Drawer, Empty, Select, Space, Table, Timeline, Typography } from "antd";
import dayjs from "dayjs";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useVersion } from "../api/version";
import { useVersions } from "../api/versions";

const FIELD_LABELS: Record<string, string> = {
  agentName: "agents.studio.name",
  agentDescription: "agents.studio.description",
  agentIcon: "agents.studio.icon",
  agentIconBackground: "agents.icon.background",
  price: "agents.detail.price",
  persona: "agents.studio.persona",
  "model.modelId": "agents.studio.modelId",
  "model.mode": "agents.studio.mode",
  "model.temperature": "agents.studio.temperature",
  "model.topP": "agents.studio.topP",
  "model.presencePenalty": "agents.studio.presencePenalty",
  "model.frequencyPenalty": "agents.studio.frequencyPenalty",
  "model.maxTokens": "agents.studio.maxTokens",
  usageGuide: "agents.studio.usageGuide",
  "chatOption.prologue": "agents.studio.prologue",
  "chatOption.presetQuestions": "agents.studio.presetQuestions",
  "chatOption.enableFastConfigRuleOnChat": "agents.studio.fastConfigRule",
  "bindings.plugins": "agents.studio.plugins",
  "bindings.externalPlugins": "agents.studio.mcpTools",
  "bindings.workflows": "agents.studio.workflows",
  "bindings.knowledgeBases": "agents.studio.knowledgeBases",
  "bindings.rules": "agents.studio.rules",
  "knowledge.topK": "agents.studio.topK",
  "knowledge.vectorWeight": "agents.studio.vectorWeight",
  "knowledge.threshold": "agents.studio.threshold",
  "knowledge.directAnswer": "agents.studio.directAnswer",
  "knowledge.directThreshold": "agents.studio.directThreshold",
  "knowledge.rerank": "agents.studio.rerank",
  "knowledge.rerankModelId": "agents.studio.rerankModel",
  "orchestration.mode": "agents.studio.orchestration",
  "orchestration.multiMode": "agents.studio.multiAgent",
  "orchestration.agents": "agents.studio.scheduledAgents",
  "orchestration.workflowId": "agents.studio.orchestrationWorkflow",
  variables: "agents.studio.variables",
  example: "agents.studio.example",
  launchTags: "agents.studio.launchTags",
  labelId: "agents.studio.label",
};

/** Version history and a field-by-field comparison of two versions. */
export function VersionsDrawer({ agentId, open, onClose }: { agentId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const versions = useVersions(open ? agentId : null);
  const list = versions.data ?? [];
  const [from, setFrom] = useState<number>();
  const [to, setTo] = useState<number>();
  useEffect(() => {
    if (list.length >= 2) {
      setTo(list[0].versionNo);
      setFrom(list[1].versionNo);
    } else if (list.length === 1) setTo(list[0].versionNo);
  }, [versions.data]);
  const a = useVersion(open ? agentId : null, from);
  const b = useVersion(open ? agentId : null, to);
  const diff = a.data && b.data ? diffSnapshots(a.data.snapshot, b.data.snapshot) : null;
  const options = list.map((v) => ({ value: v.versionNo, label: `v${v.versionNo}${v.notes ? ` · ${v.notes}` : ""}` }));

  return (
    <Drawer open={open} onClose={onClose} title={t("agents.studio.versions")} size="large" data-testid="versions-drawer">
      {list.length === 0 ? (
        <Empty description={t("agents.studio.noVersions")} />
      ) : (
        <>
          <Timeline
            items={list.map((v) => ({
              content: (
                <div>
                  <Typography.Text strong>v{v.versionNo}</Typography.Text>{" "}
                  <Typography.Text type="secondary">{dayjs(v.createdAt).format("YYYY-MM-DD HH:mm")}</Typography.Text>
                  {v.notes && <div>{v.notes}</div>}
                </div>
              ),
            }))}
          />
          <Typography.Title level={5}>{t("agents.studio.compare")}</Typography.Title>
          <Space style={{ marginBottom: 12 }}>
            <Select
              style={{ width: 200 }}
              value={from}
              onChange={setFrom}
              options={options}
              placeholder={t("agents.studio.compareHint")}
              data-testid="compare-from"
            />
            <span>→</span>
            <Select style={{ width: 200 }} value={to} onChange={setTo} options={options} data-testid="compare-to" />
          </Space>
          {diff &&
            (diff.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("agents.studio.noDiff")} />
            ) : (
              <Table
                size="small"
                rowKey="field"
                pagination={false}
                dataSource={diff}
                data-testid="version-diff"
                columns={[
                  {
                    title: t("agents.studio.field"),
                    dataIndex: "field",
                    width: 160,
                    render: (f: string) => (FIELD_LABELS[f] ? t(FIELD_LABELS[f]) : f),
                  },
                  {
                    title: `${t("agents.studio.before")} v${from}`,
                    dataIndex: "before",
                    render: (v: string) => <span style={{ whiteSpace: "pre-wrap", background: "#fff1f0" }}>{v}</span>,
                  },
                  {
                    title: `${t("agents.studio.after")} v${to}`,
                    dataIndex: "after",
                    render: (v: string) => <span style={{ whiteSpace: "pre-wrap", background: "#f6ffed" }}>{v}</span>,
                  },
                ]}
              />
            ))}
        </>
      )}
    </Drawer>
  );
}
