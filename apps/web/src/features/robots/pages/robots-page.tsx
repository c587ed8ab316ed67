import { LinkOutlined, PlusOutlined } from "@ant-design/icons";
import type { ChatRobot, RobotInput } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Space, Switch, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AdminTable, RowAction, RowDelete } from "../../../components/admin-table";
import {
  chatRobotsKey,
  deleteChatRobot,
  robotBindCode,
  saveChatRobot,
  setChatRobotEnabled,
  useChatRobots,
  useReleasedAgents,
} from "../api/robots";
import { CallbackUrl, RobotModal } from "../components/robot-modal";

const TYPE_COLORS = { wecom: "green", dingtalk: "blue", feishu: "geekblue", webhook: "default" } as const;

/** /chat-robots: the caller's chat robots (Robot management). */
export function ChatRobotsPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const robots = useChatRobots();
  const agents = useReleasedAgents();
  const [editing, setEditing] = useState<ChatRobot | "new" | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: chatRobotsKey });

  const save = async (id: string | null, body: RobotInput) => {
    await saveChatRobot(id, body);
    message.success(t("robots.saved"));
    setEditing(null);
    void refresh();
  };

  return (
    <AdminTable<ChatRobot>
      title={t("robots.title")}
      subtitle={t("robots.subtitle")}
      extra={
        <Space>
          <Button
            icon={<LinkOutlined />}
            onClick={async () => {
              const { code, expiresIn } = await robotBindCode();
              modal.info({
                title: t("robots.bindTitle", { code }),
                content: t("robots.bindHelp", { code, minutes: Math.round(expiresIn / 60) }),
                okText: t("common.confirm"),
              });
            }}
          >
            {t("robots.bind")}
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")}>
            {t("robots.add")}
          </Button>
        </Space>
      }
      loading={robots.isLoading}
      rows={robots.data}
      empty={t("robots.empty")}
      columns={[
        { title: t("robots.name"), dataIndex: "name", render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
        {
          title: t("robots.type"),
          dataIndex: "type",
          render: (v: ChatRobot["type"]) => <Tag color={TYPE_COLORS[v]}>{t(`robots.types.${v}`)}</Tag>,
        },
        { title: t("robots.agent"), dataIndex: "agentName" },
        {
          title: t("robots.callbackUrl"),
          width: 460,
          render: (_, r) => <CallbackUrl robot={r} />,
        },
        {
          title: t("robots.status"),
          dataIndex: "enabled",
          render: (v: boolean, r) => (
            <Switch
              checked={v}
              checkedChildren={t("robots.enabled")}
              unCheckedChildren={t("robots.disabled")}
              aria-label={`${r.name} ${t("robots.status")}`}
              onChange={async (on) => {
                await setChatRobotEnabled(r.id, on);
                void refresh();
              }}
            />
          ),
        },
      ]}
      actionsTitle={t("robots.actions")}
      actions={(r) => (
        <>
          <RowAction label={t("robots.edit")} onClick={() => setEditing(r)} />
          <RowDelete
            label={t("robots.delete")}
            confirm={t("robots.deleteConfirm")}
            onConfirm={async () => {
              await deleteChatRobot(r.id);
              message.success(t("robots.deleted"));
              void refresh();
            }}
          />
        </>
      )}
    >
      <RobotModal
        open={!!editing}
        robot={editing === "new" ? null : editing}
        agents={agents.data ?? []}
        onSave={save}
        onClose={() => setEditing(null)}
      />
    </AdminTable>
  );
}
