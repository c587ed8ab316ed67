import { Space, Typography } from "antd";
import type { ReactNode } from "react";

/** A management page's card title: the heading with a line of explanation under it. */
export function PageTitle({ title, subtitle }: { title: ReactNode; subtitle: ReactNode }) {
  return (
    <Space direction="vertical" size={0} style={{ padding: "12px 0" }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      <Typography.Text type="secondary" style={{ fontWeight: "normal", fontSize: 13, whiteSpace: "normal" }}>
        {subtitle}
      </Typography.Text>
    </Space>
  );
}
