import { MEMORY_VALUE_MAX, type MemoryItem } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Drawer, Empty, Input, Popconfirm, Space, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { memoryKey, resetMemory, setMemory } from "./api/memory";

/** The memory drawer (loaded when first opened: a chat's first screen shows only its button). */
export function MemoryDrawer(props: {
  agentId: string;
  release: boolean;
  sessionId: string | null;
  list: MemoryItem[];
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer open={props.open} onClose={props.onClose} title={t("chat.memory.title")} width={380} mask={false} destroyOnHidden>
      <MemoryList agentId={props.agentId} release={props.release} sessionId={props.sessionId} list={props.list} />
    </Drawer>
  );
}

function MemoryList(props: { agentId: string; release: boolean; sessionId: string | null; list: MemoryItem[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const target = { schema_id: props.agentId, release: props.release, session_id: props.sessionId };
  const done = (data: { list: MemoryItem[] }) => queryClient.setQueryData(memoryKey(props.agentId, props.release, props.sessionId), data);
  if (!props.list.length) return <Empty />;
  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }} data-testid="memory-list">
      <Typography.Text type="secondary">{t("chat.memory.hint")}</Typography.Text>
      {props.list.map((item) => (
        <MemoryRow
          key={item.name}
          item={item}
          noSession={item.scope === "session" && !props.sessionId}
          onSave={async (value) => {
            done(await setMemory({ ...target, name: item.name, value }));
            message.success(t("chat.memory.saved"));
          }}
          onReset={async () => {
            done(await resetMemory({ ...target, name: item.name }));
            message.success(t("chat.memory.resetDone"));
          }}
        />
      ))}
      <Popconfirm
        title={t("chat.memory.resetAllConfirm")}
        onConfirm={async () => {
          done(await resetMemory(target));
          message.success(t("chat.memory.resetDone"));
        }}
      >
        <Button danger block data-testid="memory-reset-all">
          {t("chat.memory.resetAll")}
        </Button>
      </Popconfirm>
    </Space>
  );
}

function MemoryRow(props: {
  item: MemoryItem;
  noSession: boolean;
  onSave: (value: string) => Promise<void>;
  onReset: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const { item } = props;
  const [value, setValue] = useState(item.value);
  const [busy, setBusy] = useState(false);
  useEffect(() => setValue(item.value), [item.value]);
  const run = (fn: () => Promise<void>) => async () => {
    setBusy(true);
    // A refusal was already shown by the http client.
    await fn().catch(() => undefined);
    setBusy(false);
  };
  return (
    <div data-testid={`memory-${item.name}`}>
      <Space size={6} wrap>
        <Typography.Text strong>{item.name}</Typography.Text>
        <Tag>{item.scope === "session" ? t("chat.memory.scopeSession") : t("chat.memory.scopeUser")}</Tag>
        {item.updatedAt ? null : <Tag color="default">{t("chat.memory.isDefault")}</Tag>}
      </Space>
      {item.description && (
        <Typography.Paragraph type="secondary" style={{ margin: "4px 0", fontSize: 12 }}>
          {item.description}
        </Typography.Paragraph>
      )}
      <Input.TextArea
        value={value}
        onChange={(e) => setValue(e.target.value)}
        maxLength={MEMORY_VALUE_MAX}
        autoSize={{ minRows: 1, maxRows: 4 }}
        disabled={props.noSession}
        aria-label={item.name}
        style={{ marginTop: 4 }}
      />
      {props.noSession ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t("chat.memory.needSession")}
        </Typography.Text>
      ) : (
        <Space style={{ marginTop: 6 }}>
          <Button size="small" type="primary" loading={busy} disabled={value === item.value} onClick={run(() => props.onSave(value))}>
            {t("chat.memory.save")}
          </Button>
          <Button size="small" disabled={busy || !item.updatedAt} onClick={run(props.onReset)}>
            {t("chat.memory.reset")}
          </Button>
        </Space>
      )}
    </div>
  );
}
