import { List, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { PreviewSegment } from "../api/preview";

/** The segments a preview returned: what a commit with the same options stores. */
export function SegmentPreviewList({ segments, pageSize = 5 }: { segments: PreviewSegment[]; pageSize?: number }) {
  const { t } = useTranslation();
  return (
    <List
      size="small"
      bordered
      data-testid="preview-list"
      header={<Typography.Text strong>{t("knowledge.wizard.segmentsCount", { count: segments.length })}</Typography.Text>}
      dataSource={segments}
      pagination={segments.length > pageSize ? { pageSize, size: "small", showSizeChanger: false } : false}
      renderItem={(s) => (
        <List.Item data-testid="preview-segment">
          <div style={{ width: "100%" }}>
            <div style={{ display: "flex", gap: 8, marginBottom: 4 }}>
              <Tag>#{s.position + 1}</Tag>
              <Tag color="blue">{t("knowledge.wizard.tokens", { count: s.tokens })}</Tag>
              {s.title && <Typography.Text type="secondary">{s.title}</Typography.Text>}
            </div>
            <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }} ellipsis={{ rows: 4, expandable: true }}>
              {s.question ? `Q: ${s.question}\nA: ${s.answer ?? ""}` : s.content}
            </Typography.Paragraph>
          </div>
        </List.Item>
      )}
    />
  );
}
