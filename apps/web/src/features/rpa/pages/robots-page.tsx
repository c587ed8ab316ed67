import { DesktopOutlined, PlusOutlined } from "@ant-design/icons";
import { type RpaRobot, type RpaRobotInput, robotTypes } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Checkbox, Form, Input, InputNumber, Modal, Result, Select, Space, Tag, Typography } from "antd";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { RemoteViewer } from "../../../components/live/remote-viewer";
import { AdminTable, EditDialog, RowAction, RowDelete, useEditDialog } from "../../../components/admin-table";
import { useUserInfo } from "../../auth/api/user-info";
import { deleteRobot, robotsKey, saveRobot, useRobots } from "../api/robots";
import { robotTicket } from "../api/ticket";

/** /robots: robot management for platform administrators (every robot) and tenant administrators (their tenant's). */
export function RobotsPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  if (!user.data) return null;
  if (!user.data.isAdmin && !user.data.isTenantAdmin) return <Result status="403" title="403" subTitle={t("http.unauthorized")} />;
  return <RobotsAdmin />;
}

function RobotsAdmin() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const robots = useRobots();
  const [viewing, setViewing] = useState<RpaRobot | null>(null);
  const [form] = Form.useForm<RpaRobotInput>();
  const dialog = useEditDialog<RpaRobot, RpaRobotInput>(form, (r) => ({ ...r, vncPassword: "" }));
  const editing = dialog.editing;
  const refresh = () => queryClient.invalidateQueries({ queryKey: robotsKey });
  const nextUrl = useCallback(() => robotTicket(viewing?.id ?? ""), [viewing]);

  const save = async (r: RpaRobot | null, values: RpaRobotInput) => {
    await saveRobot(r?.id ?? null, values);
    message.success(t("rpa.robots.saved"));
    void refresh();
  };

  return (
    <AdminTable<RpaRobot>
      title={t("rpa.robots.title")}
      subtitle={t("rpa.robots.subtitle")}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => dialog.open("new")}>
          {t("rpa.robots.add")}
        </Button>
      }
      loading={robots.isLoading}
      rows={robots.data}
      empty={t("rpa.robots.empty")}
      nowrap="rows"
      columns={[
        { title: t("rpa.robots.name"), dataIndex: "robotName", render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
        {
          title: t("rpa.robots.type"),
          dataIndex: "robotType",
          render: (v: RpaRobot["robotType"]) => <Tag>{t(`rpa.robots.types.${v}`)}</Tag>,
        },
        {
          title: `${t("rpa.robots.vncHost")}:${t("rpa.robots.vncPort")}`,
          render: (_, r) => (r.vncHost ? `${r.vncHost}:${r.vncPort}` : "—"),
        },
        {
          title: t("rpa.robots.vncPassword"),
          dataIndex: "hasVncPassword",
          render: (v: boolean) => (v ? t("rpa.robots.passwordStored") : t("rpa.robots.passwordNone")),
        },
        {
          title: t("rpa.robots.streamUrl"),
          dataIndex: "streamUrl",
          render: (v: string) => (
            <Typography.Text type="secondary" ellipsis={{ tooltip: v }} style={{ maxWidth: 260 }}>
              {v || "—"}
            </Typography.Text>
          ),
        },
        {
          title: t("rpa.robots.livePolicy"),
          dataIndex: "livePolicy",
          render: (v: number) =>
            v === 1 ? <Tag>{t("rpa.robots.livePolicies.hidden")}</Tag> : <Tag color="green">{t("rpa.robots.livePolicies.shown")}</Tag>,
        },
      ]}
      actionsTitle={t("rpa.robots.actions")}
      actions={(r) => (
        <>
          <RowAction label={t("rpa.robots.view")} icon={<DesktopOutlined />} disabled={!r.vncHost} onClick={() => setViewing(r)} />
          <RowAction label={t("rpa.robots.edit")} onClick={() => dialog.open(r)} />
          <RowDelete
            label={t("rpa.robots.delete")}
            confirm={t("rpa.robots.deleteConfirm")}
            onConfirm={async () => {
              await deleteRobot(r.id);
              message.success(t("rpa.robots.deleted"));
              void refresh();
            }}
          />
        </>
      )}
    >
      <EditDialog dialog={dialog} form={form} addTitle={t("rpa.robots.add")} editTitle={t("rpa.robots.edit")} onSave={save}>
        <Form
          form={form}
          layout="vertical"
          initialValues={{ robotType: "desktop", vncPort: 5900, livePolicy: 0, vncHost: "", streamUrl: "" }}
        >
          <Form.Item name="robotName" label={t("rpa.robots.name")} rules={[{ required: true, whitespace: true, max: 64 }]}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="robotType" label={t("rpa.robots.type")}>
            <Select options={robotTypes.map((v) => ({ value: v, label: t(`rpa.robots.types.${v}`) }))} />
          </Form.Item>
          <Space.Compact block>
            <Form.Item name="vncHost" label={t("rpa.robots.vncHost")} style={{ flex: 1 }}>
              <Input placeholder="192.168.1.20" maxLength={253} />
            </Form.Item>
            <Form.Item name="vncPort" label={t("rpa.robots.vncPort")} style={{ width: 140 }}>
              <InputNumber min={1} max={65535} style={{ width: "100%" }} />
            </Form.Item>
          </Space.Compact>
          <Form.Item name="vncPassword" label={t("rpa.robots.vncPassword")}>
            <Input.Password
              autoComplete="new-password"
              maxLength={63}
              placeholder={editing !== "new" && editing?.hasVncPassword ? t("rpa.robots.passwordKeep") : ""}
            />
          </Form.Item>
          {editing !== "new" && editing?.hasVncPassword && (
            <Form.Item name="clearVncPassword" valuePropName="checked">
              <Checkbox>{t("rpa.robots.clearPassword")}</Checkbox>
            </Form.Item>
          )}
          <Form.Item name="streamUrl" label={t("rpa.robots.streamUrl")} rules={[{ type: "url", warningOnly: false }]}>
            <Input placeholder="http://127.0.0.1:8000/live/robot.flv" maxLength={1000} />
          </Form.Item>
          <Form.Item name="livePolicy" label={t("rpa.robots.livePolicy")}>
            <Select
              options={[
                { value: 0, label: t("rpa.robots.livePolicies.shown") },
                { value: 1, label: t("rpa.robots.livePolicies.hidden") },
              ]}
            />
          </Form.Item>
        </Form>
      </EditDialog>
      <Modal
        open={!!viewing}
        title={`${t("rpa.robots.preview")} · ${viewing?.robotName ?? ""}`}
        footer={null}
        width={900}
        onCancel={() => setViewing(null)}
        destroyOnHidden
      >
        <div style={{ height: 480 }}>{viewing && <RemoteViewer url={nextUrl} />}</div>
      </Modal>
    </AdminTable>
  );
}
