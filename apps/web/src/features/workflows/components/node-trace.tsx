import { Collapse, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { NodeRun, WorkflowRun } from "@agentfair/contracts";
import { STATUS_COLOR } from "./node-meta";
import { nodeTitle } from "./node-title";

export function duration(ms: number | null | undefined, from?: string | null): string {
  const v = ms ?? (from ? Date.now() - Date.parse(from) : null);
  if (v === null || !Number.isFinite(v) || v < 0) return "";
  return v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(2)} s`;
}

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} data-testid="run-status" data-status={status} style={{ marginInlineEnd: 0 }}>
      {t(`workflows.run.status.${status}`, { defaultValue: status })}
    </Tag>
  );
}

export function Json({ value, testId }: { value: unknown; testId?: string }) {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return (
    <pre
      data-testid={testId}
      style={{
        background: "#f7f8fa",
        borderRadius: 6,
        padding: 8,
        margin: 0,
        maxHeight: 240,
        overflow: "auto",
        fontSize: 12,
        whiteSpace: "pre-wrap",
      }}
    >
      {text ?? ""}
    </pre>
  );
}

/** Each node of a run: state, duration, its input, output and error. */
export function NodeTrace({ run }: { run: WorkflowRun }) {
  const { t } = useTranslation();
  // As the canvas names it (node-title.ts): its own title, else its type's name; a run names an
  // untitled node by its id.
  const titleOf = (n: NodeRun) => nodeTitle(t, n.type, n.title && n.title !== n.id ? n.title : "");
  const row = (n: NodeRun) => ({
    key: `${n.scope}/${n.id}`,
    label: (
      <Space style={{ width: "100%", justifyContent: "space-between" }} data-testid={`trace-${n.id}`}>
        <Typography.Text strong>
          {titleOf(n)}
          {n.scope && <Typography.Text type="secondary"> {n.scope}</Typography.Text>}
        </Typography.Text>
        <Space size={6}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {duration(n.durationMs, n.startedAt)}
          </Typography.Text>
          <StatusTag status={n.status} />
        </Space>
      </Space>
    ),
    children: (
      <Space direction="vertical" style={{ width: "100%" }} size={6}>
        {n.input !== undefined && n.input !== null && (
          <>
            <Typography.Text type="secondary">{t("workflows.run.input")}</Typography.Text>
            <Json value={n.input} />
          </>
        )}
        {n.output !== undefined && n.output !== null && (
          <>
            <Typography.Text type="secondary">{t("workflows.run.output")}</Typography.Text>
            <Json value={n.output} testId={`trace-output-${n.id}`} />
          </>
        )}
        {n.error && <Typography.Text type="danger">{n.error}</Typography.Text>}
        {n.tokens > 0 && (
          <Typography.Text type="secondary">
            {t("workflows.run.tokens")}: {n.tokens}
          </Typography.Text>
        )}
      </Space>
    ),
  });
  return <Collapse size="small" items={run.nodes.map(row)} />;
}
