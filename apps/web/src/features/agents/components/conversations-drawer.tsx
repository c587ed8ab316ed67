import { DislikeOutlined, DownloadOutlined, LeftOutlined, LikeOutlined, ToolOutlined } from "@ant-design/icons";
import {
  CONVERSATION_PAGE_SIZE,
  CONVERSATION_RANGES,
  type ConversationItem,
  type ConversationMessage,
  type TuningRecord,
} from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  type ButtonProps,
  Drawer,
  Empty,
  Form,
  Input,
  List,
  Modal,
  Popconfirm,
  Segmented,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  conversationsKey,
  deleteTuning,
  exportConversations,
  pushTuning,
  saveTuning,
  useConversation,
  useConversations,
  useTuning,
} from "../api/conversations";
import { useMyKnowledgeBases } from "../api/my-knowledge-bases";

const fmt = (v: string) => dayjs(v).format("YYYY-MM-DD HH:mm");

/** Conversation details and tuning records of the agent, for its owner. */
export function ConversationsDrawer({ agentId, open, onClose }: { agentId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer open={open} onClose={onClose} title={t("agents.conversations.title")} size="large" data-testid="conversations-drawer">
      {open && (
        <Tabs
          items={[
            { key: "sessions", label: t("agents.conversations.title"), children: <Sessions agentId={agentId} /> },
            { key: "tuning", label: t("agents.conversations.tuningTab"), children: <Tuning agentId={agentId} /> },
          ]}
        />
      )}
    </Drawer>
  );
}

function Sessions({ agentId }: { agentId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [days, setDays] = useState<number>(CONVERSATION_RANGES[0]);
  const [pageNo, setPageNo] = useState(1);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const page = useConversations(agentId, days, pageNo);
  if (sessionId) return <SessionMessages agentId={agentId} sessionId={sessionId} onBack={() => setSessionId(null)} />;
  const download = (format: "csv" | "xlsx") => exportConversations(agentId, days, format).catch((e: Error) => message.error(e.message));
  return (
    <>
      <Space style={{ marginBottom: 12, width: "100%", justifyContent: "space-between" }}>
        <Segmented
          value={days}
          onChange={(v) => {
            setDays(Number(v));
            setPageNo(1);
          }}
          options={CONVERSATION_RANGES.map((d) => ({ value: d, label: t(`agents.conversations.ranges.${d}`) }))}
          data-testid="conversations-range"
        />
        <Space>
          <Button icon={<DownloadOutlined />} onClick={() => download("csv")} data-testid="conversations-export-csv">
            {t("agents.conversations.exportCsv")}
          </Button>
          <Button icon={<DownloadOutlined />} onClick={() => download("xlsx")} data-testid="conversations-export-xlsx">
            {t("agents.conversations.exportXlsx")}
          </Button>
        </Space>
      </Space>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }} data-testid="conversations-whose">
        {t("agents.conversations.whose")}
      </Typography.Paragraph>
      <Table<ConversationItem>
        rowKey="sessionId"
        size="small"
        loading={page.isLoading}
        dataSource={page.data?.list ?? []}
        locale={{ emptyText: <Empty description={t("agents.conversations.empty")} /> }}
        pagination={{ current: pageNo, pageSize: CONVERSATION_PAGE_SIZE, total: page.data?.total ?? 0, onChange: setPageNo }}
        onRow={(r) => ({ onClick: () => setSessionId(r.sessionId), style: { cursor: "pointer" } })}
        data-testid="conversations-table"
        columns={[
          {
            title: t("agents.conversations.sessionTitle"),
            dataIndex: "title",
            ellipsis: true,
            render: (v: string, r) => (
              <Space size={4}>
                {!r.release && <Tag>{t("agents.conversations.debug")}</Tag>}
                <span>{v || "—"}</span>
              </Space>
            ),
          },
          { title: t("agents.conversations.user"), width: 140, ellipsis: true, render: (_, r) => r.nickname || r.username },
          { title: t("agents.conversations.messages"), dataIndex: "messages", width: 80 },
          { title: t("agents.conversations.tokens"), width: 130, render: (_, r) => `${r.inputTokens} / ${r.outputTokens}` },
          {
            title: t("agents.conversations.feedback"),
            width: 100,
            render: (_, r) => (
              <Space size={8}>
                <span>
                  <LikeOutlined /> {r.likes}
                </span>
                <span>
                  <DislikeOutlined /> {r.dislikes}
                </span>
              </Space>
            ),
          },
          { title: t("agents.conversations.lastActive"), dataIndex: "updatedAt", width: 140, render: fmt },
        ]}
      />
    </>
  );
}

function SessionMessages({ agentId, sessionId, onBack }: { agentId: string; sessionId: string; onBack: () => void }) {
  const { t } = useTranslation();
  const session = useConversation(agentId, sessionId);
  const [tuning, setTuning] = useState<ConversationMessage | null>(null);
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button icon={<LeftOutlined />} onClick={onBack} data-testid="conversation-back">
          {t("agents.conversations.back")}
        </Button>
        {session.data && (
          <Typography.Text type="secondary">
            {session.data.nickname || session.data.username} · {session.data.title}
          </Typography.Text>
        )}
      </Space>
      <List
        loading={session.isLoading}
        dataSource={session.data?.list ?? []}
        data-testid="conversation-messages"
        renderItem={(m) => (
          <List.Item
            actions={
              m.role === "bot"
                ? [
                    <Button
                      key="tune"
                      size="small"
                      icon={<ToolOutlined />}
                      type={m.tuningId ? "primary" : "default"}
                      ghost={!!m.tuningId}
                      onClick={() => setTuning(m)}
                      data-testid="conversation-tune"
                    >
                      {m.tuningId ? t("agents.conversations.tuned") : t("agents.conversations.tune")}
                    </Button>,
                  ]
                : []
            }
          >
            <List.Item.Meta
              title={
                <Space size={8}>
                  <Tag color={m.role === "user" ? "blue" : "green"}>
                    {m.role === "user" ? t("agents.conversations.question") : t("agents.conversations.answer")}
                  </Tag>
                  <Typography.Text type="secondary">{fmt(m.createdAt)}</Typography.Text>
                  {m.role === "bot" && (
                    <Typography.Text type="secondary">
                      {m.inputTokens} / {m.outputTokens} tokens
                    </Typography.Text>
                  )}
                  {m.feedback === "like" && <LikeOutlined style={{ color: "#52c41a" }} />}
                  {m.feedback === "dislike" && <DislikeOutlined style={{ color: "#ff4d4f" }} />}
                </Space>
              }
              description={
                <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0, color: "inherit" }}>
                  {m.error ?? m.content}
                </Typography.Paragraph>
              }
            />
          </List.Item>
        )}
      />
      {tuning && <TuneModal agentId={agentId} message={tuning} onClose={() => setTuning(null)} />}
    </>
  );
}

function TuneModal({ agentId, message: reply, onClose }: { agentId: string; message: ConversationMessage; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const records = useTuning(agentId);
  const existing = records.data?.find((r) => r.messageId === reply.id);
  const [form] = Form.useForm<{ note: string; correctedAnswer: string }>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const values = form.getFieldsValue();
    if (!values.note?.trim() && !values.correctedAnswer?.trim()) return message.error(t("agents.conversations.tuneEmpty"));
    setSaving(true);
    try {
      await saveTuning(agentId, { messageId: reply.id, note: values.note ?? "", correctedAnswer: values.correctedAnswer ?? "" });
      message.success(t("agents.conversations.saved"));
      await queryClient.invalidateQueries({ queryKey: conversationsKey(agentId) });
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={t("agents.conversations.tuneTitle")}
      onCancel={onClose}
      onOk={save}
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "tune-save" } as ButtonProps}
    >
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 4, expandable: true }}>
        {t("agents.conversations.originalAnswer")}
        {t("common.colon")}
        {reply.content}
      </Typography.Paragraph>
      {!records.isLoading && (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ note: existing?.note ?? "", correctedAnswer: existing?.correctedAnswer ?? "" }}
        >
          <Form.Item name="note" label={t("agents.conversations.note")}>
            <Input.TextArea rows={2} placeholder={t("agents.conversations.notePlaceholder")} data-testid="tune-note" />
          </Form.Item>
          <Form.Item name="correctedAnswer" label={t("agents.conversations.correctedAnswer")}>
            <Input.TextArea rows={5} placeholder={t("agents.conversations.correctedPlaceholder")} data-testid="tune-corrected" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

function Tuning({ agentId }: { agentId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const records = useTuning(agentId);
  const bases = useMyKnowledgeBases();
  const [target, setTarget] = useState<Record<string, string>>({});
  const refresh = () => queryClient.invalidateQueries({ queryKey: conversationsKey(agentId) });
  const push = async (r: TuningRecord) => {
    const knowledgeId = target[r.id] ?? r.knowledgeId;
    if (!knowledgeId) return message.error(t("agents.conversations.pushPlaceholder"));
    await pushTuning(agentId, r.id, knowledgeId);
    message.success(t("agents.conversations.pushed"));
    await refresh();
  };
  const baseName = (id: string | null) => bases.data?.list.find((b) => b.id === id)?.name ?? "";
  return (
    <List
      loading={records.isLoading}
      dataSource={records.data ?? []}
      locale={{ emptyText: <Empty description={t("agents.conversations.noTuning")} /> }}
      data-testid="tuning-list"
      renderItem={(r) => (
        <List.Item>
          <Space direction="vertical" style={{ width: "100%" }}>
            <Typography.Text strong>{r.question || "—"}</Typography.Text>
            <Typography.Text type="secondary" delete={!!r.correctedAnswer}>
              {r.answer}
            </Typography.Text>
            {r.correctedAnswer && <Typography.Text style={{ whiteSpace: "pre-wrap" }}>{r.correctedAnswer}</Typography.Text>}
            {r.note && (
              <Typography.Text type="warning">
                {t("agents.conversations.note")}
                {t("common.colon")}
                {r.note}
              </Typography.Text>
            )}
            <Space wrap>
              {r.correctedAnswer && (
                <>
                  <Select
                    style={{ width: 220 }}
                    placeholder={t("agents.conversations.pushPlaceholder")}
                    value={target[r.id] ?? r.knowledgeId ?? undefined}
                    onChange={(v) => setTarget({ ...target, [r.id]: v })}
                    options={(bases.data?.list ?? []).map((b) => ({ value: b.id, label: b.name }))}
                    data-testid="tuning-knowledge"
                  />
                  <Button onClick={() => push(r)} data-testid="tuning-push">
                    {t("agents.conversations.pushTo")}
                  </Button>
                </>
              )}
              {r.pushedAt && (
                <Tag color="green">
                  {t("agents.conversations.pushedAt")} {baseName(r.knowledgeId)} · {fmt(r.pushedAt)}
                </Tag>
              )}
              <Popconfirm
                title={t("agents.conversations.deleteConfirm")}
                onConfirm={async () => {
                  await deleteTuning(agentId, r.id);
                  message.success(t("agents.conversations.deleted"));
                  await refresh();
                }}
              >
                <Button type="link" danger size="small">
                  {t("agents.conversations.delete")}
                </Button>
              </Popconfirm>
            </Space>
          </Space>
        </List.Item>
      )}
    />
  );
}
