import {
  ApiOutlined,
  BellOutlined,
  DeleteOutlined,
  EditOutlined,
  MailOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  PlusOutlined,
  ThunderboltOutlined,
} from "@ant-design/icons";
import {
  isEmail,
  TASK_API_DEFAULT_PER_MINUTE,
  TASK_DELIVERIES,
  TASK_MAIL_DEFAULT_PORT,
  TASK_MAIL_PROTOCOLS,
  TASK_PROMPT_MAX_BYTES,
  type Task,
  type TaskInput,
  type TaskRun,
} from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import {
  App,
  Badge,
  Button,
  type ButtonProps,
  Card,
  Col,
  Drawer,
  Empty,
  Form,
  Input,
  InputNumber,
  List,
  Modal,
  Popconfirm,
  Radio,
  Row,
  Select,
  Space,
  Table,
  Tag,
  TimePicker,
  Tooltip,
  Typography,
} from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { validated } from "../../../lib/form";
import {
  deleteTask,
  newTaskApiKey,
  readTaskNotices,
  runTaskNow,
  saveTask,
  setTaskEnabled,
  taskTriggerUrl,
  tasksKey,
  useCronPreview,
  useTaskNotices,
  useTaskRobots,
  useTaskRuns,
  useTaskTargets,
  useTasks,
} from "../api/tasks";

const fmt = (iso: string | null) => (iso ? dayjs(iso).format("YYYY-MM-DD HH:mm") : "-");
const statusColor = { QUEUED: "default", RUNNING: "processing", SUCCEEDED: "success", FAILED: "error" } as const;

/** Task schedule and task management: the list, the create/edit modal, run history and notices. */
export function TasksPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const tasks = useTasks(search);
  const notices = useTaskNotices();
  const [editing, setEditing] = useState<Task | "new" | null>(null);
  const [historyOf, setHistoryOf] = useState<Task | null>(null);
  const [noticesOpen, setNoticesOpen] = useState(false);
  // A just-made apikey, shown this once.
  const [shownKey, setShownKey] = useState<{ taskId: string; apiKey: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: tasksKey });

  const describeTrigger = (r: Task) => {
    if (r.triggerType === "cron") return <Typography.Text code>{r.cron}</Typography.Text>;
    if (r.triggerType === "api")
      return (
        <Space size={4}>
          <ApiOutlined />
          <span>{t("tasks.triggers.api")}</span>
          <Typography.Text code>{r.apiKeyPrefix}…</Typography.Text>
        </Space>
      );
    if (r.triggerType === "email")
      return (
        <Space size={4}>
          <MailOutlined />
          <span>{r.mailAccount}</span>
          {r.mailError && (
            <Tooltip title={r.mailError}>
              <Tag color="error">{t("tasks.mailError")}</Tag>
            </Tooltip>
          )}
        </Space>
      );
    const when =
      r.cycle === "weekly"
        ? `${t(`tasks.weekdays.${r.cycleWeekday ?? 1}`)} `
        : r.cycle === "monthly"
          ? `${t("tasks.monthdayLabel", { day: r.cycleMonthday })} `
          : "";
    return `${t(`tasks.cycles.${r.cycle ?? "daily"}`)} ${when}${r.cycleTime ?? ""}`;
  };

  return (
    <div style={{ maxWidth: 1200, margin: "0 auto", padding: 16 }}>
      <Card>
        {/* The title and the actions on one row, the subtitle under both at full width: a long
            (English) subtitle beside the actions, in the card's header, wrapped hard against the search box. */}
        <div
          style={{ display: "flex", flexWrap: "wrap", alignItems: "center", justifyContent: "space-between", gap: "8px 24px" }}
          data-testid="tasks-header"
        >
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t("tasks.title")}
          </Typography.Title>
          <Space wrap data-testid="tasks-actions">
            <Input.Search allowClear placeholder={t("tasks.name")} onSearch={setSearch} style={{ width: 200 }} />
            <Badge count={notices.data?.unread ?? 0} size="small">
              <Button
                icon={<BellOutlined />}
                onClick={() => {
                  setNoticesOpen(true);
                  void notices.refetch();
                }}
                data-testid="task-notices"
              >
                {t("tasks.notices")}
              </Button>
            </Badge>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="task-create">
              {t("tasks.create")}
            </Button>
          </Space>
        </div>
        <Typography.Paragraph type="secondary" style={{ fontSize: 13, margin: "4px 0 16px" }} data-testid="tasks-subtitle">
          {t("tasks.subtitle")}
        </Typography.Paragraph>
        <Table<Task>
          rowKey="id"
          size="middle"
          loading={tasks.isLoading}
          dataSource={tasks.data?.list ?? []}
          pagination={false}
          scroll={{ x: 1000 }}
          locale={{ emptyText: <Empty description={t("tasks.empty")} /> }}
          columns={[
            {
              title: t("tasks.name"),
              dataIndex: "name",
              render: (v: string, r) => (
                <Button type="link" style={{ padding: 0 }} onClick={() => setHistoryOf(r)} data-testid="task-history">
                  {v}
                </Button>
              ),
            },
            {
              title: t("tasks.target"),
              render: (_, r) => (
                <Space size={4}>
                  <Tag>{t(`tasks.types.${r.targetType}`)}</Tag>
                  {r.targetName || "-"}
                </Space>
              ),
            },
            { title: t("tasks.trigger"), render: (_, r) => describeTrigger(r) },
            { title: t("tasks.delivery"), dataIndex: "delivery", render: (v: Task["delivery"]) => t(`tasks.deliveries.${v}`), width: 100 },
            {
              title: t("tasks.status"),
              dataIndex: "enabled",
              width: 90,
              render: (v: boolean) => <Tag color={v ? "green" : "default"}>{v ? t("tasks.enabled") : t("tasks.paused")}</Tag>,
            },
            { title: t("tasks.nextRun"), dataIndex: "nextRunAt", render: fmt, width: 150 },
            {
              title: t("tasks.lastStatus"),
              dataIndex: "lastStatus",
              width: 100,
              render: (v: Task["lastStatus"]) => (v ? <Tag color={statusColor[v]}>{t(`tasks.runStatuses.${v}`)}</Tag> : "-"),
            },
            {
              title: t("tasks.actions"),
              width: 190,
              fixed: "right",
              render: (_, r) => (
                <Space size={0}>
                  <Tooltip title={t("tasks.runNow")}>
                    <Button
                      type="text"
                      icon={<ThunderboltOutlined />}
                      aria-label={t("tasks.runNow")}
                      data-testid="task-run"
                      onClick={async () => {
                        await runTaskNow(r.id);
                        message.success(t("tasks.runQueued"));
                        setHistoryOf(r);
                        void refresh();
                      }}
                    />
                  </Tooltip>
                  <Tooltip title={r.enabled ? t("tasks.pause") : t("tasks.resume")}>
                    <Button
                      type="text"
                      icon={r.enabled ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
                      aria-label={r.enabled ? t("tasks.pause") : t("tasks.resume")}
                      data-testid="task-toggle"
                      onClick={async () => {
                        await setTaskEnabled(r.id, !r.enabled);
                        void refresh();
                      }}
                    />
                  </Tooltip>
                  <Tooltip title={t("tasks.edit")}>
                    <Button type="text" icon={<EditOutlined />} aria-label={t("tasks.edit")} onClick={() => setEditing(r)} />
                  </Tooltip>
                  <Popconfirm
                    title={t("tasks.deleteConfirm")}
                    onConfirm={async () => {
                      await deleteTask(r.id);
                      message.success(t("tasks.deleted"));
                      void refresh();
                    }}
                  >
                    <Button type="text" danger icon={<DeleteOutlined />} aria-label="delete" />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {editing && (
        <TaskEditor
          task={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            if (saved.apiKey) setShownKey({ taskId: saved.id, apiKey: saved.apiKey });
            void refresh();
          }}
          onNewKey={(taskId, apiKey) => {
            setEditing(null);
            setShownKey({ taskId, apiKey });
            void refresh();
          }}
        />
      )}
      {shownKey && <ApiKeyShown {...shownKey} onClose={() => setShownKey(null)} />}
      {historyOf && <RunHistory task={historyOf} onClose={() => setHistoryOf(null)} />}
      <Drawer
        open={noticesOpen}
        title={t("tasks.notices")}
        onClose={() => setNoticesOpen(false)}
        extra={
          <Button
            size="small"
            onClick={async () => {
              await readTaskNotices();
              void refresh();
            }}
          >
            {t("tasks.markRead")}
          </Button>
        }
      >
        <List
          dataSource={notices.data?.list ?? []}
          locale={{ emptyText: <Empty description={t("tasks.noNotices")} /> }}
          renderItem={(n) => (
            <List.Item>
              <List.Item.Meta
                title={
                  <Space>
                    <Badge status={n.read ? "default" : n.kind === "failed" ? "error" : "success"} />
                    {n.title}
                    <Tag color={n.kind === "failed" ? "error" : "success"}>{t(`tasks.noticeKinds.${n.kind}`)}</Tag>
                  </Space>
                }
                description={
                  <>
                    <Typography.Paragraph ellipsis={{ rows: 3 }} style={{ marginBottom: 4 }}>
                      {n.body}
                    </Typography.Paragraph>
                    <Typography.Text type="secondary">{fmt(n.createdAt)}</Typography.Text>
                  </>
                }
              />
            </List.Item>
          )}
        />
      </Drawer>
    </div>
  );
}

type FormValues = Omit<TaskInput, "cycleTime"> & { cycleTime: dayjs.Dayjs };

function TaskEditor({
  task,
  onClose,
  onSaved,
  onNewKey,
}: {
  task: Task | null;
  onClose: () => void;
  onSaved: (saved: Task) => void;
  onNewKey: (taskId: string, apiKey: string) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const targets = useTaskTargets();
  const robots = useTaskRobots();
  const targetType = Form.useWatch("targetType", form) ?? task?.targetType ?? "agent";
  const triggerType = Form.useWatch("triggerType", form) ?? task?.triggerType ?? "cycle";
  const cycle = Form.useWatch("cycle", form) ?? task?.cycle ?? "daily";
  const delivery = Form.useWatch("delivery", form) ?? task?.delivery ?? "in_app";
  const cron = Form.useWatch("cron", form) ?? "";
  const mailProtocol = Form.useWatch("mailProtocol", form) ?? task?.mailProtocol ?? "imaps";
  const preview = useCronPreview(triggerType === "cron" ? cron : "");
  const initial: FormValues = {
    name: task?.name ?? "",
    targetType: task?.targetType ?? "agent",
    targetId: task?.targetId ?? undefined,
    prompt: task?.prompt ?? "",
    triggerType: task?.triggerType ?? "cycle",
    cron: task?.triggerType === "cron" ? task.cron : "",
    cycle: task?.cycle ?? "daily",
    cycleTime: dayjs(`2000-01-01 ${task?.cycleTime ?? "09:00"}`),
    cycleWeekday: task?.cycleWeekday ?? 1,
    cycleMonthday: task?.cycleMonthday ?? 1,
    delivery: task?.delivery ?? "in_app",
    email: task?.email ?? "",
    robotId: task?.robotId || undefined,
    robotRecipient: task?.robotRecipient ?? "",
    mailHost: task?.mailHost ?? "",
    mailPort: task?.mailPort ?? undefined,
    mailProtocol: task?.mailProtocol ?? "imaps",
    mailAccount: task?.mailAccount ?? "",
    mailPassword: "",
    apiRequestsPerMinute: task?.apiRequestsPerMinute ?? TASK_API_DEFAULT_PER_MINUTE,
  };
  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      // Fields of the other trigger are not mounted: their kept values come from the store.
      const all: FormValues = { ...form.getFieldsValue(true), ...values };
      const saved = await saveTask(task?.id ?? null, { ...all, cycleTime: (all.cycleTime ?? dayjs("2000-01-01 09:00")).format("HH:mm") });
      message.success(t("tasks.saved"));
      onSaved(saved);
    } catch {
      // the http client has shown the server's message (a wrong cron expression)
    } finally {
      setSaving(false);
    }
  };
  const options = (targets.data ?? []).filter((x) => x.type === targetType).map((x) => ({ value: x.id, label: x.name }));
  return (
    <Modal
      open
      width={680}
      title={task ? t("tasks.edit") : t("tasks.create")}
      onCancel={onClose}
      onOk={save}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "task-save" } as ButtonProps}
    >
      <Form form={form} layout="vertical" initialValues={initial}>
        <Form.Item name="name" label={t("tasks.name")} rules={[{ required: true, whitespace: true, message: t("tasks.required.name") }]}>
          <Input maxLength={50} data-testid="task-name" />
        </Form.Item>
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item name="targetType" label={t("tasks.type")}>
              <Select
                onChange={() => form.setFieldValue("targetId", undefined)}
                options={(["agent", "workflow"] as const).map((v) => ({ value: v, label: t(`tasks.types.${v}`) }))}
              />
            </Form.Item>
          </Col>
          <Col span={16}>
            <Form.Item name="targetId" label={t("tasks.target")} rules={[{ required: true, message: t("tasks.required.target") }]}>
              <Select
                showSearch
                optionFilterProp="label"
                options={options}
                loading={targets.isLoading}
                notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("tasks.noTargets")} />}
                data-testid="task-target"
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="prompt"
          label={t("tasks.prompt")}
          extra={t("tasks.promptHint")}
          rules={[
            { required: true, whitespace: true, message: t("tasks.required.prompt") },
            {
              validator: (_, v: string) =>
                new TextEncoder().encode(v ?? "").length > TASK_PROMPT_MAX_BYTES
                  ? Promise.reject(new Error(t("tasks.promptHint")))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input.TextArea rows={3} data-testid="task-prompt" />
        </Form.Item>
        <Form.Item name="triggerType" label={t("tasks.trigger")}>
          <Radio.Group
            optionType="button"
            options={(["cycle", "cron", "email", "api"] as const).map((v) => ({ value: v, label: t(`tasks.triggers.${v}`) }))}
            data-testid="task-trigger"
          />
        </Form.Item>
        {triggerType === "api" ? (
          <>
            <Row gutter={12} align="bottom">
              <Col span={10}>
                <Form.Item name="apiRequestsPerMinute" label={t("tasks.apiPerMinute")} tooltip={t("tasks.apiPerMinuteHint")}>
                  <InputNumber min={0} max={600} precision={0} style={{ width: "100%" }} data-testid="task-api-limit" />
                </Form.Item>
              </Col>
              {task?.triggerType === "api" && (
                <Col span={14}>
                  <Form.Item label={t("tasks.apiKey")}>
                    <Space>
                      <Typography.Text code data-testid="task-api-prefix">
                        {task.apiKeyPrefix}…
                      </Typography.Text>
                      <Popconfirm
                        title={t("tasks.apiKeyNewConfirm")}
                        onConfirm={async () => onNewKey(task.id, (await newTaskApiKey(task.id)).apiKey)}
                      >
                        <Button size="small" data-testid="task-api-new-key">
                          {t("tasks.apiKeyNew")}
                        </Button>
                      </Popconfirm>
                    </Space>
                  </Form.Item>
                </Col>
              )}
            </Row>
            <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
              {t("tasks.apiHint")}
            </Typography.Paragraph>
          </>
        ) : triggerType === "email" ? (
          <>
            <Row gutter={12}>
              <Col span={10}>
                <Form.Item
                  name="mailHost"
                  label={t("tasks.mailHost")}
                  rules={[{ required: true, whitespace: true, message: t("tasks.required.mailHost") }]}
                >
                  <Input placeholder="imap.example.com" data-testid="task-mail-host" />
                </Form.Item>
              </Col>
              <Col span={6}>
                <Form.Item name="mailPort" label={t("tasks.mailPort")}>
                  <InputNumber min={1} max={65535} placeholder={String(TASK_MAIL_DEFAULT_PORT[mailProtocol])} style={{ width: "100%" }} />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="mailProtocol" label={t("tasks.mailProtocol")}>
                  <Select options={TASK_MAIL_PROTOCOLS.map((v) => ({ value: v, label: t(`tasks.mailProtocols.${v}`) }))} />
                </Form.Item>
              </Col>
            </Row>
            <Row gutter={12}>
              <Col span={12}>
                <Form.Item
                  name="mailAccount"
                  label={t("tasks.mailAccount")}
                  rules={[{ required: true, whitespace: true, message: t("tasks.required.mailAccount") }]}
                >
                  <Input data-testid="task-mail-account" autoComplete="off" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  name="mailPassword"
                  label={t("tasks.mailPassword")}
                  rules={task?.mailPasswordSet ? [] : [{ required: true, message: t("tasks.required.mailPassword") }]}
                >
                  <Input.Password
                    data-testid="task-mail-password"
                    autoComplete="new-password"
                    placeholder={task?.mailPasswordSet ? t("tasks.mailPasswordKept") : undefined}
                  />
                </Form.Item>
              </Col>
            </Row>
            <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
              {t("tasks.mailHint")}
            </Typography.Paragraph>
          </>
        ) : triggerType === "cron" ? (
          <Form.Item
            name="cron"
            label={t("tasks.triggers.cron")}
            extra={
              <Space direction="vertical" size={0}>
                <span>{t("tasks.cronHint")}</span>
                {preview.data &&
                  (preview.data.valid ? (
                    <span data-testid="task-cron-next">
                      {t("tasks.cronNext")}
                      {t("common.colon")}
                      {preview.data.next.slice(0, 3).map(fmt).join(t("common.listSeparator"))}
                    </span>
                  ) : (
                    <Typography.Text type="danger">{t("tasks.cronInvalid")}</Typography.Text>
                  ))}
              </Space>
            }
            rules={[{ required: true, whitespace: true, message: t("tasks.required.cron") }]}
          >
            <Input placeholder="0 9 * * 1" data-testid="task-cron" style={{ fontFamily: "monospace" }} />
          </Form.Item>
        ) : (
          <Row gutter={12}>
            <Col span={8}>
              <Form.Item name="cycle" label={t("tasks.cycle")}>
                <Select options={(["daily", "weekly", "monthly"] as const).map((v) => ({ value: v, label: t(`tasks.cycles.${v}`) }))} />
              </Form.Item>
            </Col>
            {cycle === "weekly" && (
              <Col span={8}>
                <Form.Item name="cycleWeekday" label={t("tasks.weekday")}>
                  <Select options={[0, 1, 2, 3, 4, 5, 6].map((d) => ({ value: d, label: t(`tasks.weekdays.${d}`) }))} />
                </Form.Item>
              </Col>
            )}
            {cycle === "monthly" && (
              <Col span={8}>
                <Form.Item name="cycleMonthday" label={t("tasks.monthday")}>
                  <Select
                    options={Array.from({ length: 28 }, (_, i) => ({ value: i + 1, label: t("tasks.monthdayLabel", { day: i + 1 }) }))}
                  />
                </Form.Item>
              </Col>
            )}
            <Col span={8}>
              <Form.Item name="cycleTime" label={t("tasks.time")}>
                <TimePicker format="HH:mm" allowClear={false} style={{ width: "100%" }} />
              </Form.Item>
            </Col>
          </Row>
        )}
        <Row gutter={12}>
          <Col span={10}>
            <Form.Item name="delivery" label={t("tasks.delivery")}>
              <Radio.Group options={TASK_DELIVERIES.map((v) => ({ value: v, label: t(`tasks.deliveries.${v}`) }))} />
            </Form.Item>
          </Col>
          {delivery === "email" && (
            <Col span={14}>
              <Form.Item
                name="email"
                label={t("tasks.email")}
                extra={t("tasks.emailHint")}
                rules={[
                  {
                    validator: (_, v: string) =>
                      !v || isEmail(v) ? Promise.resolve() : Promise.reject(new Error(t("tasks.required.email"))),
                  },
                ]}
              >
                <Input data-testid="task-email" />
              </Form.Item>
            </Col>
          )}
          {delivery === "robot" && (
            <>
              <Col span={6}>
                <Form.Item name="robotId" label={t("tasks.robot")} rules={[{ required: true, message: t("tasks.required.robot") }]}>
                  <Select
                    options={(robots.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
                    loading={robots.isLoading}
                    notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("tasks.noRobots")} />}
                    data-testid="task-robot"
                  />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="robotRecipient" label={t("tasks.robotRecipient")} tooltip={t("tasks.robotRecipientHint")}>
                  <Input data-testid="task-robot-recipient" />
                </Form.Item>
              </Col>
            </>
          )}
        </Row>
      </Form>
    </Modal>
  );
}

function RunHistory({ task, onClose }: { task: Task; onClose: () => void }) {
  const { t } = useTranslation();
  const runs = useTaskRuns(task.id);
  return (
    <Drawer open width={760} title={`${t("tasks.history")} · ${task.name}`} onClose={onClose}>
      <Table<TaskRun>
        rowKey="id"
        size="small"
        loading={runs.isLoading}
        dataSource={runs.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t("tasks.noRuns")} /> }}
        expandable={{
          expandedRowRender: (r) => (
            <>
              {r.input && (
                <Typography.Paragraph type="secondary" style={{ whiteSpace: "pre-wrap" }}>
                  <b>{r.trigger === "api" ? t("tasks.apiInput") : t("tasks.mailInput")}</b>
                  {"\n"}
                  {r.input}
                </Typography.Paragraph>
              )}
              <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0 }}>
                {r.error ? <Typography.Text type="danger">{r.error}</Typography.Text> : r.output}
              </Typography.Paragraph>
            </>
          ),
        }}
        columns={[
          { title: t("tasks.dueAt"), dataIndex: "dueAt", render: fmt, width: 140 },
          { title: t("tasks.trigger"), dataIndex: "trigger", render: (v: TaskRun["trigger"]) => t(`tasks.triggers.${v}`), width: 100 },
          {
            title: t("tasks.status"),
            dataIndex: "status",
            width: 120,
            render: (v: TaskRun["status"], r) => (
              <Tag color={v === "QUEUED" && r.error ? "warning" : statusColor[v]} data-testid="task-run-status">
                {v === "QUEUED" && r.error ? t("tasks.retrying") : t(`tasks.runStatuses.${v}`)}
              </Tag>
            ),
          },
          { title: t("tasks.attempts"), dataIndex: "attempts", width: 80 },
          {
            title: t("tasks.output"),
            render: (_, r) => (
              <Typography.Text ellipsis style={{ maxWidth: 200 }}>
                {r.error ?? r.output}
              </Typography.Text>
            ),
          },
          {
            title: "",
            width: 90,
            render: (_, r) =>
              r.sessionId && task.targetType === "agent" ? (
                <Link to={`/agent-execute?id=${task.targetId}&sessionId=${r.sessionId}`}>{t("tasks.openSession")}</Link>
              ) : null,
          },
        ]}
      />
    </Drawer>
  );
}

/** A just-made apikey with a call to copy: shown this once (only its first characters are kept readable). */
function ApiKeyShown({ taskId, apiKey, onClose }: { taskId: string; apiKey: string; onClose: () => void }) {
  const { t } = useTranslation();
  const url = taskTriggerUrl(taskId);
  const snippet = `curl -X POST '${url}' \\\n  -H 'Authorization: Bearer ${apiKey}' \\\n  -H 'Content-Type: application/json' \\\n  -d '{"input": "…"}'`;
  return (
    <Modal
      open
      title={t("tasks.apiKeyTitle")}
      onCancel={onClose}
      onOk={onClose}
      cancelButtonProps={{ style: { display: "none" } }}
      width={640}
    >
      <Typography.Paragraph type="warning">{t("tasks.apiKeyShownOnce")}</Typography.Paragraph>
      <Typography.Paragraph copyable={{ text: apiKey }} code data-testid="task-api-key">
        {apiKey}
      </Typography.Paragraph>
      <Typography.Text strong>{t("tasks.apiSnippet")}</Typography.Text>
      <Typography.Paragraph copyable={{ text: snippet }}>
        <pre style={{ whiteSpace: "pre-wrap", wordBreak: "break-all", margin: 0 }} data-testid="task-api-snippet">
          {snippet}
        </pre>
      </Typography.Paragraph>
    </Modal>
  );
}
