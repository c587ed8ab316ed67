import { WORKFLOW_RUN_PAGE_SIZE } from "@agentfair/contracts";
import { ArrowLeftOutlined } from "@ant-design/icons";
import { Button, Empty, List, Space, Spin, Typography } from "antd";
import dayjs from "dayjs";
import type { WorkflowRun } from "@agentfair/contracts";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRuns } from "../api/runs";
import { useRun } from "../api/use-run";
import { duration, Json, NodeTrace, StatusTag } from "./node-trace";

/** Run history of the workflow: newest first; a run opens to its inputs, outputs and node trace. */
export function HistoryPanel({ workflowId, onView }: { workflowId: string; onView?: (run: WorkflowRun | null) => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const runs = useRuns(workflowId, page);
  const [open, setOpen] = useState<string | null>(null);
  const detail = useRun(open);
  // The canvas highlights the run being viewed (not the latest test run); nothing once it is closed.
  const viewed = open ? (detail.data ?? null) : null;
  useEffect(() => {
    onView?.(viewed);
  }, [viewed, onView]);
  useEffect(() => () => onView?.(null), [onView]);

  if (open) {
    const run = detail.data;
    return (
      <div data-testid="history-detail">
        <Button type="link" icon={<ArrowLeftOutlined />} onClick={() => setOpen(null)} style={{ paddingInline: 0 }}>
          {t("workflows.history.back")}
        </Button>
        {!run ? (
          <Spin />
        ) : (
          <Space direction="vertical" style={{ width: "100%" }}>
            <Space>
              <StatusTag status={run.status} />
              <Typography.Text type="secondary">{duration(run.durationMs, run.startedAt)}</Typography.Text>
              {run.tokens > 0 && (
                <Typography.Text type="secondary">
                  {t("workflows.run.tokens")}: {run.tokens}
                </Typography.Text>
              )}
            </Space>
            {Object.keys(run.inputs).length > 0 && (
              <>
                <Typography.Text strong>{t("workflows.run.inputs")}</Typography.Text>
                <Json value={run.inputs} />
              </>
            )}
            {run.outputs !== undefined && run.outputs !== null && (
              <>
                <Typography.Text strong>{t("workflows.run.outputs")}</Typography.Text>
                <Json value={run.outputs} />
              </>
            )}
            {run.error && <Typography.Text type="danger">{run.error}</Typography.Text>}
            <Typography.Text strong>{t("workflows.history.trace")}</Typography.Text>
            <NodeTrace run={run} />
          </Space>
        )}
      </div>
    );
  }
  return (
    <List
      data-testid="history-list"
      loading={runs.isLoading}
      dataSource={runs.data?.content ?? []}
      pagination={
        (runs.data?.totalElements ?? 0) > WORKFLOW_RUN_PAGE_SIZE
          ? {
              current: page + 1,
              pageSize: WORKFLOW_RUN_PAGE_SIZE,
              total: runs.data?.totalElements,
              onChange: (p) => setPage(p - 1),
              size: "small",
            }
          : false
      }
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("workflows.history.empty")} /> }}
      renderItem={(r) => {
        const id = r.id;
        const at = r.startedAt;
        return (
          <List.Item
            data-testid="history-item"
            actions={[
              <Button key="d" type="link" size="small" onClick={() => setOpen(id)}>
                {t("workflows.history.detail")}
              </Button>,
            ]}
          >
            <Space direction="vertical" size={0}>
              <Space>
                <StatusTag status={r.status} />
                <Typography.Text>{at ? dayjs(at).format("YYYY-MM-DD HH:mm:ss") : id}</Typography.Text>
              </Space>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {duration(r.durationMs, r.startedAt)} · {r.version === "draft" ? t("workflows.history.draft") : `v${r.version}`}
                {r.tokens > 0 ? ` · ${t("workflows.run.tokens")} ${r.tokens}` : ""}
              </Typography.Text>
            </Space>
          </List.Item>
        );
      }}
    />
  );
}
