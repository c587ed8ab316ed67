import type { HumanInputRequest, WorkflowRun } from "@agentfair/contracts";
import { Alert, App, Button, Divider, Empty, Form, Input, InputNumber, Space, Switch, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { answerRun, resumeRun, startRun } from "../api/run";
import { replyOf, useRun } from "../api/use-run";
import type { VarType } from "../model/types";
import { Json, NodeTrace, StatusTag } from "./node-trace";
import { validated } from "../../../lib/form";

function parseValue(type: VarType, raw: unknown): unknown {
  if (raw === undefined || raw === null || raw === "") return undefined;
  if (type !== "object" && type !== "array") return raw;
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

type Field = { name: string; type: VarType; required?: boolean; label?: string };

/** A form of typed fields: the start node's inputs, or the fields a human-input node asks for. */
function FieldsForm({ fields, form, prefix }: { fields: Field[]; form: ReturnType<typeof Form.useForm>[0]; prefix: string }) {
  const { t } = useTranslation();
  return (
    <Form form={form} layout="vertical" size="small">
      {fields.map((i) => (
        <Form.Item
          key={i.name}
          name={i.name}
          label={`${i.label || i.name} (${i.type})`}
          rules={i.required ? [{ required: true, message: t("workflows.run.required", { name: i.label || i.name }) }] : undefined}
          valuePropName={i.type === "boolean" ? "checked" : "value"}
        >
          {i.type === "number" ? (
            <InputNumber style={{ width: "100%" }} data-testid={`${prefix}-${i.name}`} />
          ) : i.type === "boolean" ? (
            <Switch data-testid={`${prefix}-${i.name}`} />
          ) : (
            <Input.TextArea autoSize={{ minRows: 1, maxRows: 6 }} data-testid={`${prefix}-${i.name}`} />
          )}
        </Form.Item>
      ))}
    </Form>
  );
}

const valuesOf = (fields: Field[], raw: Record<string, unknown>) =>
  Object.fromEntries(fields.map((f) => [f.name, parseValue(f.type, raw[f.name])]).filter(([, v]) => v !== undefined));

/** The human-input node's question and the answer form. */
function Answer({ runId, waiting, onDone }: { runId: string; waiting: HumanInputRequest; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const fields: Field[] = waiting.fields.length ? waiting.fields : [{ name: "answer", type: "string", required: true }];
  const submit = async () => {
    const raw = await validated(form);
    if (!raw) return;
    setBusy(true);
    try {
      await answerRun(runId, { nodeId: waiting.nodeId, scope: waiting.scope, values: valuesOf(fields, raw) });
      onDone();
    } catch {
      // shown by the http client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert
      type="warning"
      message={t("workflows.run.waiting")}
      data-testid="run-waiting"
      description={
        <Space direction="vertical" style={{ width: "100%" }}>
          {waiting.prompt && <Typography.Text>{waiting.prompt}</Typography.Text>}
          <FieldsForm fields={fields} form={form} prefix="run-answer" />
          <Button type="primary" loading={busy} onClick={submit} data-testid="run-answer-submit">
            {t("workflows.run.submitAnswer")}
          </Button>
        </Space>
      }
    />
  );
}

/** Test run: the start node's inputs, run, each node's state live; resume a failure; answer a pause. */
export function RunPanel({
  workflowId,
  inputs,
  dirty,
  onRun,
}: {
  workflowId: string;
  inputs: Field[];
  dirty: boolean;
  /** The canvas paints the nodes from it. */
  onRun: (run: WorkflowRun | null) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [runId, setRunId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useRun(runId);

  useEffect(() => {
    onRun(run.data ?? null);
  }, [run.data, onRun]);

  const start = async () => {
    const raw = await validated(form);
    if (!raw) return;
    setBusy(true);
    try {
      const { runId: id } = await startRun(workflowId, valuesOf(inputs, raw));
      setRunId(id);
    } catch {
      // the http client has shown the server's message
    } finally {
      setBusy(false);
    }
  };
  const resume = async () => {
    if (!runId) return;
    setBusy(true);
    try {
      await resumeRun(runId);
      message.success(t("workflows.run.resumed"));
      await run.refetch();
    } catch {
      // shown by the http client
    } finally {
      setBusy(false);
    }
  };

  const data = run.data;
  return (
    <div data-testid="run-panel">
      {dirty && <Alert type="warning" showIcon message={t("workflows.run.saveFirst")} style={{ marginBottom: 12 }} />}
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t("workflows.run.inputs")}
      </Typography.Title>
      <FieldsForm fields={inputs} form={form} prefix="run-input" />
      <Button type="primary" block loading={busy || data?.status === "RUNNING"} onClick={start} data-testid="run-start">
        {t("workflows.run.start")}
      </Button>
      <Divider />
      {!data ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("workflows.run.noRun")} />
      ) : (
        <Space direction="vertical" style={{ width: "100%" }}>
          <Space wrap>
            <StatusTag status={data.status} />
            {data.tokens > 0 && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t("workflows.run.tokens")}: {data.tokens}
              </Typography.Text>
            )}
          </Space>
          {data.status === "FAILED" && (
            <>
              {data.error && <Alert type="error" message={data.error} data-testid="run-error" />}
              <Button onClick={resume} loading={busy} data-testid="run-resume">
                {t("workflows.run.resume")}
              </Button>
            </>
          )}
          {data.status === "PAUSED" && data.waiting && runId && (
            <Answer runId={runId} waiting={data.waiting} onDone={() => run.refetch()} />
          )}
          {replyOf(data) && (
            <>
              <Typography.Text strong>{t("workflows.run.reply")}</Typography.Text>
              <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }} data-testid="run-reply">
                {replyOf(data)}
              </Typography.Paragraph>
            </>
          )}
          {data.outputs && data.status === "SUCCEEDED" && (
            <>
              <Typography.Text strong>{t("workflows.run.outputs")}</Typography.Text>
              <Json value={data.outputs} testId="run-outputs" />
            </>
          )}
          <Typography.Text strong>{t("workflows.run.nodes")}</Typography.Text>
          <NodeTrace run={data} />
        </Space>
      )}
    </div>
  );
}
