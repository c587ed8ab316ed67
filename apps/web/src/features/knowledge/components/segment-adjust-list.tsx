import { DeleteOutlined, EditOutlined, MergeCellsOutlined, UndoOutlined } from "@ant-design/icons";
import { Button, Input, List, Modal, Space, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type Adjustments, applyAdjustments, deleteSegment, editSegment, mergeWithNext, NO_ADJUSTMENTS } from "../adjust";
import type { PreviewSegment } from "../api/preview";

/**
 * The wizard's segment adjustment: edit, merge with the next, or delete previewed segments before
 * anything is stored. The list shown is what the commit stores (the server applies the same adjustments
 * to the same parse).
 */
export function SegmentAdjustList({
  segments,
  adjustments,
  onChange,
}: {
  segments: PreviewSegment[];
  adjustments: Adjustments;
  onChange: (a: Adjustments) => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<PreviewSegment | null>(null);
  const [draft, setDraft] = useState("");
  const [page, setPage] = useState(1);
  const shown = applyAdjustments(segments, adjustments);
  const changed = Object.keys(adjustments.edits).length + adjustments.deletes.length > 0;

  return (
    <>
      <List
        size="small"
        bordered
        data-testid="adjust-list"
        header={
          <Space style={{ width: "100%", justifyContent: "space-between" }}>
            <Typography.Text strong>{t("knowledge.wizard.segmentsCount", { count: shown.length })}</Typography.Text>
            <Button
              size="small"
              icon={<UndoOutlined />}
              disabled={!changed}
              onClick={() => onChange(NO_ADJUSTMENTS)}
              data-testid="adjust-reset"
            >
              {t("knowledge.wizard.adjustReset")}
            </Button>
          </Space>
        }
        dataSource={shown}
        pagination={shown.length > 8 ? { current: page, onChange: setPage, pageSize: 8, size: "small", showSizeChanger: false } : false}
        renderItem={(s, i) => {
          const last = (page - 1) * 8 + i === shown.length - 1;
          return (
            <List.Item
              data-testid="adjust-segment"
              actions={[
                <Tooltip key="edit" title={t("knowledge.segments.edit")}>
                  <Button
                    type="text"
                    size="small"
                    icon={<EditOutlined />}
                    aria-label={t("knowledge.segments.edit")}
                    onClick={() => {
                      setEditing(s);
                      setDraft(s.content);
                    }}
                    data-testid="adjust-edit"
                  />
                </Tooltip>,
                <Tooltip key="merge" title={t("knowledge.wizard.mergeNext")}>
                  <Button
                    type="text"
                    size="small"
                    icon={<MergeCellsOutlined />}
                    aria-label={t("knowledge.wizard.mergeNext")}
                    disabled={last}
                    onClick={() => onChange(mergeWithNext(shown, adjustments, s.position))}
                    data-testid="adjust-merge"
                  />
                </Tooltip>,
                <Tooltip key="delete" title={t("knowledge.page.delete")}>
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t("knowledge.page.delete")}
                    disabled={shown.length === 1}
                    onClick={() => onChange(deleteSegment(adjustments, s.position))}
                    data-testid="adjust-delete"
                  />
                </Tooltip>,
              ]}
            >
              <div style={{ width: "100%", minWidth: 0 }}>
                <div style={{ display: "flex", gap: 8, marginBottom: 4, flexWrap: "wrap" }}>
                  <Tag>#{s.position + 1}</Tag>
                  {s.edited ? (
                    <Tag color="orange" data-testid="adjust-edited">
                      {t("knowledge.segments.edited")}
                    </Tag>
                  ) : (
                    <Tag color="blue">{t("knowledge.wizard.tokens", { count: s.tokens })}</Tag>
                  )}
                  {s.title && <Typography.Text type="secondary">{s.title}</Typography.Text>}
                </div>
                <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }} ellipsis={{ rows: 4, expandable: true }}>
                  {s.question ? `Q: ${s.question}\nA: ${s.answer ?? ""}` : s.content}
                </Typography.Paragraph>
              </div>
            </List.Item>
          );
        }}
      />
      <Modal
        open={!!editing}
        title={t("knowledge.segments.editTitle")}
        onCancel={() => setEditing(null)}
        onOk={() => {
          if (editing) onChange(editSegment(adjustments, editing.position, draft));
          setEditing(null);
        }}
        okButtonProps={{ disabled: !draft.trim() }}
        okText={t("common.confirm")}
        cancelText={t("common.cancel")}
        width={680}
        destroyOnHidden
      >
        <Input.TextArea
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          autoSize={{ minRows: 8, maxRows: 20 }}
          maxLength={20000}
          showCount
          data-testid="adjust-text"
        />
      </Modal>
    </>
  );
}
