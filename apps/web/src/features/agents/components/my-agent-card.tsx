import { DeleteOutlined, EditOutlined, EllipsisOutlined, SettingOutlined } from "@ant-design/icons";
import { type AgentCard, INSIGHT_AGENT_TYPE, isListed, isUnreleased } from "@agentfair/contracts";
import { Button, Card, Dropdown, Popconfirm, Space, Tag, Tooltip, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { AgentIcon } from "../../../components/icon-picker/agent-icon";
import { relativeTime } from "../../../components/relative-time";
import { detailPath } from "./market-card";

export interface MyAgentActions {
  onStart: () => void;
  onEdit: () => void;
  onDelete: () => Promise<void>;
  onSettings: () => void;
  onRename: () => void;
  onList: () => void;
  /** Downloads the released agent's backup zip. */
  onExport?: () => void;
}

/** The status label: listed / not listed from launchVersion and launchVersionDisabled, plus the review state. */
function StatusTags({ agent }: { agent: AgentCard }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      {isListed(agent) ? <Tag color="green">{t("agents.mine.listed")}</Tag> : <Tag>{t("agents.mine.notListed")}</Tag>}
      {agent.applyStatus === "PENDING" && <Tag color="processing">{t("agents.mine.pending")}</Tag>}
      {agent.applyStatus === "REJECTED" && (
        <Tooltip title={t("agents.mine.rejectedReason", { reason: agent.applyReason ?? "" })}>
          <Tag color="red">{t("agents.mine.rejected")}</Tag>
        </Tooltip>
      )}
      {isUnreleased(agent.agentStatus) && <Tag color="gold">{t("agents.mine.unreleased")}</Tag>}
      {agent.copyByMe && <Tag color="blue">{t("agents.mine.copied")}</Tag>}
    </Space>
  );
}

/** A card of My agents: last-modified date, delete, edit, settings and the hover menu. */
export function MyAgentCard({ agent, showMenu, actions }: { agent: AgentCard; showMenu: boolean; actions: MyAgentActions }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const untyped = !agent.agentType;
  // Listing needs a release, and one request at a time.
  const unlistable = isUnreleased(agent.agentStatus)
    ? t("agents.mine.unreleased")
    : agent.applyStatus === "PENDING"
      ? t("agents.mine.pending")
      : null;
  return (
    <Card
      hoverable
      styles={{ body: { padding: 16, display: "flex", flexDirection: "column", gap: 10, height: "100%" } }}
      style={{ height: "100%" }}
      onClick={actions.onStart}
      data-testid="my-agent-card"
    >
      <div style={{ display: "flex", gap: 12, alignItems: "center" }}>
        <AgentIcon icon={agent.agentIcon} background={agent.agentIconBackground} size={52} />
        <div style={{ minWidth: 0, flex: 1 }}>
          <Typography.Text strong ellipsis style={{ fontSize: 16, display: "block" }} data-testid="agent-name">
            {agent.agentName}
          </Typography.Text>
          <StatusTags agent={agent} />
        </div>
      </div>
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, minHeight: 44 }}>
        {agent.agentDescription}
      </Typography.Paragraph>
      <div
        style={{ display: "flex", alignItems: "center", justifyContent: "space-between", marginTop: "auto" }}
        onClick={(e) => e.stopPropagation()}
      >
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t("agents.mine.lastModified", { time: relativeTime(agent.lastModifiedDate) })}
        </Typography.Text>
        <Space size={2}>
          {agent.agentType !== INSIGHT_AGENT_TYPE && (
            <Tooltip title={t("agents.mine.edit")}>
              <Button
                type="text"
                size="small"
                icon={<EditOutlined />}
                onClick={actions.onEdit}
                aria-label={t("agents.mine.edit")}
                data-testid="edit-agent"
              />
            </Tooltip>
          )}
          {untyped && (
            <Tooltip title={t("agents.mine.settings")}>
              <Button
                type="text"
                size="small"
                icon={<SettingOutlined />}
                onClick={actions.onSettings}
                aria-label={t("agents.mine.settings")}
              />
            </Tooltip>
          )}
          <Popconfirm
            title={t("agents.mine.confirmDelete")}
            onConfirm={actions.onDelete}
            okText={t("common.confirm")}
            cancelText={t("common.cancel")}
          >
            <Tooltip title={t("agents.mine.delete")}>
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t("agents.mine.delete")}
                data-testid="delete-agent"
              />
            </Tooltip>
          </Popconfirm>
          {untyped && showMenu && (
            <Dropdown
              trigger={["hover", "click"]}
              menu={{
                items: [
                  { key: "rename", label: t("agents.mine.rename"), onClick: actions.onRename },
                  { key: "detail", label: t("agents.mine.viewDetails"), onClick: () => navigate(detailPath(agent)) },
                  {
                    key: "list",
                    label: t("agents.mine.list"),
                    disabled: !!unlistable,
                    extra: unlistable ?? undefined,
                    onClick: actions.onList,
                  },
                  {
                    key: "mcp",
                    label: t("channels.mcp.menu"),
                    disabled: isUnreleased(agent.agentStatus),
                    extra: isUnreleased(agent.agentStatus) ? t("agents.mine.unreleased") : undefined,
                    onClick: () => navigate(`/mcp-access?id=${agent.id}`),
                  },
                  ...(actions.onExport
                    ? [
                        {
                          key: "export",
                          label: t("agents.mine.exportZip"),
                          disabled: isUnreleased(agent.agentStatus),
                          extra: isUnreleased(agent.agentStatus) ? t("agents.mine.exportNeedsRelease") : undefined,
                          onClick: actions.onExport,
                        },
                      ]
                    : []),
                ],
              }}
            >
              <Button type="text" size="small" icon={<EllipsisOutlined />} aria-label="more" data-testid="agent-more" />
            </Dropdown>
          )}
        </Space>
      </div>
    </Card>
  );
}
