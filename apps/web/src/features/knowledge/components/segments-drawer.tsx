import type { Segment } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { PlusOutlined } from "@ant-design/icons";
import { App, Button, Drawer, Input, List, Modal, Popconfirm, Space, Switch, Tag, Tooltip, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { addSegment, deleteSegment } from "../api/segment-writes";
import { SEGMENTS_PAGE_SIZE, useSegments } from "../api/segments";
import { updateSegment } from "../api/update-segment";

/** The stored segments of one file: add, edit, delete, enable/disable (hand edits and additions survive a re-parse). */
export function SegmentsDrawer({
  baseId,
  file,
  onClose,
}: {
  baseId: string;
  file: { fileId: string; name: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  // null: closed; { segment: null }: a new segment.
  const [editing, setEditing] = useState<{ segment: Segment | null } | null>(null);
  const [draft, setDraft] = useState("");
  const query = useSegments(baseId, file?.fileId ?? null, page);

  useEffect(() => {
    if (file) setPage(1);
  }, [file]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ["knowledge", "segments", baseId] });
  const toggle = async (s: Segment, enabled: boolean) => {
    await updateSegment(baseId, s.id, { enabled });
    await refresh();
  };
  const save = async () => {
    if (!editing || !file) return;
    try {
      if (editing.segment) await updateSegment(baseId, editing.segment.id, { content: draft });
      else await addSegment(baseId, { content: draft, fileId: file.fileId });
    } catch {
      return;
    }
    message.success(t(editing.segment ? "knowledge.segments.saved" : "knowledge.segments.added"));
    setEditing(null);
    await refresh();
  };
  const remove = async (s: Segment) => {
    await deleteSegment(baseId, s.id);
    message.success(t("knowledge.page.deleted"));
    await refresh();
  };

  return (
    <Drawer
      open={!!file}
      width={720}
      title={t("knowledge.segments.title", { name: file?.name ?? "" })}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Button
          icon={<PlusOutlined />}
          onClick={() => {
            setEditing({ segment: null });
            setDraft("");
          }}
          data-testid="segment-add"
        >
          {t("knowledge.segments.add")}
        </Button>
      }
    >
      <List
        loading={query.isFetching}
        dataSource={query.data?.list ?? []}
        locale={{ emptyText: t("knowledge.segments.empty") }}
        data-testid="segments-list"
        pagination={{
          current: page,
          pageSize: SEGMENTS_PAGE_SIZE,
          total: query.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          size: "small",
        }}
        renderItem={(s) => (
          <List.Item
            data-testid="segment-item"
            actions={[
              <Switch
                key="enabled"
                size="small"
                checked={s.enabled}
                onChange={(v) => toggle(s, v)}
                checkedChildren={t("knowledge.segments.enabled")}
                data-testid="segment-enabled"
              />,
              <Button
                key="edit"
                type="link"
                size="small"
                onClick={() => {
                  setEditing({ segment: s });
                  setDraft(s.content);
                }}
              >
                {t("knowledge.segments.edit")}
              </Button>,
              <Popconfirm
                key="delete"
                title={t("knowledge.segments.confirmDelete")}
                okText={t("common.confirm")}
                cancelText={t("common.cancel")}
                onConfirm={() => remove(s)}
              >
                <Button type="link" size="small" danger data-testid="segment-delete">
                  {t("knowledge.page.delete")}
                </Button>
              </Popconfirm>,
            ]}
          >
            <div style={{ opacity: s.enabled ? 1 : 0.5, width: "100%" }}>
              <Space size={4} style={{ marginBottom: 4 }}>
                <Tag>{t("knowledge.segments.position", { n: s.position + 1 })}</Tag>
                <Tag color="blue">{t("knowledge.wizard.tokens", { count: s.tokens })}</Tag>
                {s.edited && (
                  <Tooltip title={t("knowledge.segments.editedHint")}>
                    <Tag color="orange" data-testid="segment-edited">
                      {t("knowledge.segments.edited")}
                    </Tag>
                  </Tooltip>
                )}
                {s.title && <Typography.Text type="secondary">{s.title}</Typography.Text>}
              </Space>
              <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }} ellipsis={{ rows: 4, expandable: true }}>
                {s.content}
              </Typography.Paragraph>
            </div>
          </List.Item>
        )}
      />
      <Modal
        open={!!editing}
        title={editing?.segment ? t("knowledge.segments.editTitle") : t("knowledge.segments.add")}
        onCancel={() => setEditing(null)}
        onOk={save}
        okButtonProps={{ disabled: !draft.trim() }}
        okText={t("common.confirm")}
        cancelText={t("common.cancel")}
        width={680}
      >
        <Input.TextArea
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          autoSize={{ minRows: 8, maxRows: 20 }}
          maxLength={20000}
          showCount
        />
      </Modal>
    </Drawer>
  );
}
