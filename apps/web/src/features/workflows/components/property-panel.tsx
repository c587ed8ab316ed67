import { DeleteOutlined } from "@ant-design/icons";
import { Button, Checkbox, Divider, Empty, Form, Input, InputNumber, Radio, Select, Space, Switch, Tag, Typography } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { CodeEditor } from "../../../components/code-editor";
import { useAgentOptions, useKnowledgeOptions, usePluginOptions, useWorkflowOptions } from "../api/options";
import { useWorkflow } from "../api/workflow";
import { releasedOutputs } from "../model/nodes";
import type { VariableOption } from "../model/graph";
import {
  AggregateProps,
  AssignProps,
  ClassifierProps,
  CodeOutputs,
  ExtractorProps,
  IterationProps,
  ListProps,
  LoopProps,
} from "./more-props";
import type { ConditionCase, HumanField, KeyValue, NodeData, StartInput, WfNode } from "../model/types";
import {
  AddButton,
  ConditionRow,
  type FieldProps,
  ModelField,
  RemoveButton,
  removeAt,
  TextField,
  typeOptions,
  updateAt,
  VariableRows,
} from "./fields";
import { VarInput, VariablesContext, VarSelect } from "./var-input";

type Patch = (data: Partial<NodeData>) => void;

/** name → value rows (code params, end outputs, tool params, HTTP headers); values pick upstream variables. */
function MapEditor({
  value,
  onChange,
  testId,
  free,
  addLabel,
}: {
  value: Record<string, string>;
  onChange: (v: Record<string, string>) => void;
  testId: string;
  /** Free text with variables inside rather than one variable. */
  free?: boolean;
  addLabel: string;
}) {
  const { t } = useTranslation();
  const rows = Object.entries(value ?? {});
  const set = (next: [string, string][]) => onChange(Object.fromEntries(next));
  return (
    <div data-testid={testId}>
      {rows.map(([k, v], i) => (
        <Space.Compact key={i} style={{ width: "100%", marginBottom: 6 }}>
          <Input
            style={{ width: "38%" }}
            value={k}
            placeholder={t("workflows.props.paramName")}
            data-testid={`${testId}-name-${i}`}
            onChange={(e) => set(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))}
          />
          <div style={{ width: "52%" }}>
            {free ? (
              <VarInput value={v} onChange={(nv) => set(rows.map((r, j) => (j === i ? [r[0], nv] : r)))} testId={`${testId}-value-${i}`} />
            ) : (
              <VarSelect value={v} onChange={(nv) => set(rows.map((r, j) => (j === i ? [r[0], nv] : r)))} testId={`${testId}-value-${i}`} />
            )}
          </div>
          <RemoveButton onClick={() => set(removeAt(rows, i))} />
        </Space.Compact>
      ))}
      <AddButton
        testId={`${testId}-add`}
        onClick={() => {
          let n = rows.length + 1;
          while (value?.[`param${n}`] !== undefined) n++;
          set([...rows, [`param${n}`, ""]]);
        }}
      >
        {addLabel}
      </AddButton>
    </div>
  );
}

/** A labelled name → value editor bound to one key of the node's data. */
function MapField({
  data,
  patch,
  field,
  label,
  testId,
  free,
  addLabel,
}: FieldProps & { field: string; label: string; testId: string; free?: boolean; addLabel?: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label}>
      <MapEditor
        free={free}
        value={(data[field] as Record<string, string>) ?? {}}
        onChange={(v) => patch({ [field]: v })}
        testId={testId}
        addLabel={addLabel ?? t("workflows.props.addParam")}
      />
    </Form.Item>
  );
}

function StartProps({ data, patch }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t("workflows.props.inputs")}>
      <VariableRows
        rows={(data.inputs as StartInput[]) ?? []}
        onChange={(inputs) => patch({ inputs })}
        placeholder={t("workflows.props.inputName")}
        nameTestId={(i) => `start-input-name-${i}`}
        below={(inp, up) => (
          <Checkbox checked={!!inp.required} onChange={(e) => up({ required: e.target.checked })}>
            {t("workflows.props.required")}
          </Checkbox>
        )}
        newRow={(names) => ({ name: `input${names.length + 1}`, type: "string", required: false })}
        addLabel={t("workflows.props.addInput")}
        addTestId="start-input-add"
      />
    </Form.Item>
  );
}

function CodeProps({ data, patch }: FieldProps) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t("workflows.props.language")}>
        <Radio.Group
          optionType="button"
          value={data.language ?? "javascript"}
          onChange={(e) =>
            patch({
              language: e.target.value,
              code:
                e.target.value === "python"
                  ? "def main(params):\n    return {'result': params}\n"
                  : "function main(params) {\n  return { result: params };\n}\n",
            })
          }
          options={[
            { value: "javascript", label: "JavaScript" },
            { value: "python", label: "Python" },
          ]}
        />
      </Form.Item>
      <MapField data={data} patch={patch} field="params" label={t("workflows.props.params")} testId="code-params" />
      <Form.Item label={t("workflows.props.code")} extra={t("workflows.props.codeHint")}>
        <CodeEditor value={String(data.code ?? "")} onChange={(code) => patch({ code })} testId="code-editor" />
      </Form.Item>
      <CodeOutputs data={data} patch={patch} />
    </>
  );
}

/** The `[{name, value}]` rows of HTTP headers and query. */
function PairsEditor({ value, onChange, testId }: { value: KeyValue[]; onChange: (v: KeyValue[]) => void; testId: string }) {
  const { t } = useTranslation();
  const rows = value ?? [];
  return (
    <MapEditor
      free
      value={Object.fromEntries(rows.map((r) => [r.name, r.value]))}
      onChange={(m) => onChange(Object.entries(m).map(([name, v]) => ({ name, value: v })))}
      testId={testId}
      addLabel={t("workflows.props.addParam")}
    />
  );
}

function HumanProps({ data, patch }: FieldProps) {
  const { t } = useTranslation();
  const fields = (data.fields as HumanField[]) ?? [];
  const set = (next: HumanField[]) => patch({ fields: next });
  return (
    <>
      <TextField multiline data={data} patch={patch} field="prompt" label={t("workflows.props.question")} testId="human-prompt" />
      <Form.Item label={t("workflows.props.answerFields")}>
        {fields.map((f, i) => (
          <Space.Compact key={i} style={{ width: "100%", marginBottom: 6 }}>
            <Input
              value={f.name}
              placeholder={t("workflows.props.inputName")}
              onChange={(e) => set(updateAt(fields, i, { name: e.target.value }))}
            />
            <Input
              value={f.label}
              placeholder={t("workflows.props.fieldLabel")}
              onChange={(e) => set(updateAt(fields, i, { label: e.target.value }))}
            />
            <Select style={{ width: 110 }} value={f.type} options={typeOptions} onChange={(type) => set(updateAt(fields, i, { type }))} />
            <RemoveButton onClick={() => set(removeAt(fields, i))} />
          </Space.Compact>
        ))}
        <AddButton onClick={() => set([...fields, { name: `field${fields.length + 1}`, type: "string", label: "", required: true }])}>
          {t("workflows.props.addInput")}
        </AddButton>
      </Form.Item>
    </>
  );
}

function ConditionProps({ data, patch }: FieldProps) {
  const { t } = useTranslation();
  const branches = (data.cases as ConditionCase[]) ?? [];
  const set = (next: ConditionCase[]) => patch({ cases: next });
  const setBranch = (i: number, b: Partial<ConditionCase>) => set(updateAt(branches, i, b));
  return (
    <div data-testid="condition-branches">
      {branches.map((b, i) => (
        <div key={b.id} style={{ border: "1px solid #f0f0f0", borderRadius: 8, padding: 8, marginBottom: 8 }}>
          <Space style={{ width: "100%", justifyContent: "space-between" }}>
            <Typography.Text strong>
              {i === 0 ? t("workflows.props.if") : t("workflows.props.elseIf")} <Typography.Text type="secondary">{b.id}</Typography.Text>
            </Typography.Text>
            <Space>
              <Radio.Group
                size="small"
                optionType="button"
                value={b.logic}
                onChange={(e) => setBranch(i, { logic: e.target.value })}
                options={[
                  { value: "and", label: t("workflows.props.and") },
                  { value: "or", label: t("workflows.props.or") },
                ]}
              />
              <RemoveButton size="small" onClick={() => set(removeAt(branches, i))} />
            </Space>
          </Space>
          {b.conditions.map((c, k) => (
            <ConditionRow
              key={k}
              rule={c}
              onChange={(r) => setBranch(i, { conditions: updateAt(b.conditions, k, r) })}
              onRemove={() => setBranch(i, { conditions: removeAt(b.conditions, k) })}
              testId={`cond-${i}-${k}`}
              style={{ marginTop: 6 }}
            />
          ))}
          <AddButton link onClick={() => setBranch(i, { conditions: [...b.conditions, { variable: "", operator: "equals", value: "" }] })}>
            {t("workflows.props.addCondition")}
          </AddButton>
        </div>
      ))}
      <AddButton
        onClick={() => {
          let n = branches.length + 1;
          while (branches.some((b) => b.id === `case_${n}`)) n++;
          set([...branches, { id: `case_${n}`, logic: "and", conditions: [{ variable: "", operator: "equals", value: "" }] }]);
        }}
      >
        {t("workflows.props.addBranch")}
      </AddButton>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t("workflows.props.else")}
      </Typography.Paragraph>
    </div>
  );
}

/**
 * Runs another of the owner's released workflows; its inputs are filled like a tool's parameters, and its
 * released end-node outputs become this node's (what later nodes pick), kept in step with its latest release.
 */
function SubworkflowProps({ data, patch, selfId }: FieldProps & { selfId?: string }) {
  const { t } = useTranslation();
  const list = useWorkflowOptions();
  const picked = useWorkflow(String(data.workflowId ?? ""));
  const outputs = (data.outputs as string[] | undefined) ?? [];
  const released = picked.data ? releasedOutputs(picked.data.released) : null;
  useEffect(() => {
    if (released && released.join("\n") !== outputs.join("\n")) patch({ outputs: released });
  }, [released, outputs, patch]);
  const options = (list.data?.content ?? [])
    .filter((w) => w.id !== selfId)
    .map((w) => ({
      value: w.id,
      label: w.pluginStatus === "C90_Released" ? w.workflowName : `${w.workflowName} (${t("workflows.editor.statusUnreleased")})`,
      disabled: w.pluginStatus !== "C90_Released",
    }));
  return (
    <>
      <Form.Item label={t("workflows.props.subworkflow")} extra={t("workflows.props.subworkflowHint")}>
        <Select
          showSearch={{ optionFilterProp: "label" }}
          value={String(data.workflowId ?? "") || undefined}
          onChange={(workflowId) => patch({ workflowId, outputs: [] })}
          options={options}
          data-testid="subworkflow-select"
        />
      </Form.Item>
      <Form.Item label={t("workflows.props.outputs")}>
        <div data-testid="subworkflow-outputs">
          {outputs.length ? (
            outputs.map((o) => <Tag key={o}>{o}</Tag>)
          ) : (
            <Typography.Text type="secondary">{t("workflows.props.subworkflowNoOutputs")}</Typography.Text>
          )}
        </div>
      </Form.Item>
      <MapField free data={data} patch={patch} field="inputs" label={t("workflows.props.inputs")} testId="subworkflow-inputs" />
    </>
  );
}

function TypeProps({ node, patch, workflowId }: { node: WfNode; patch: Patch; workflowId?: string }) {
  const { t } = useTranslation();
  const d = node.data;
  const bases = useKnowledgeOptions();
  const plugins = usePluginOptions();
  const agents = useAgentOptions();
  const str = (k: string) => String(d[k] ?? "");
  switch (node.type) {
    case "start":
      return <StartProps data={d} patch={patch} />;
    case "end":
      return (
        <MapField
          data={d}
          patch={patch}
          field="outputs"
          label={t("workflows.props.outputs")}
          testId="end-outputs"
          addLabel={t("workflows.props.addOutput")}
        />
      );
    case "code":
      return <CodeProps data={d} patch={patch} />;
    case "answer":
      return <TextField multiline data={d} patch={patch} field="text" label={t("workflows.props.answerText")} testId="answer-text" />;
    case "condition":
      return <ConditionProps data={d} patch={patch} />;
    case "template":
      return (
        <TextField
          multiline
          data={d}
          patch={patch}
          field="template"
          label={t("workflows.props.template")}
          extra={t("workflows.props.templateHint")}
          testId="template-text"
        />
      );
    case "llm":
      return (
        <>
          <ModelField data={d} patch={patch} />
          <TextField multiline data={d} patch={patch} field="systemPrompt" label={t("workflows.props.system")} testId="llm-system" />
          <TextField multiline data={d} patch={patch} field="prompt" label={t("workflows.props.prompt")} testId="llm-prompt" />
          <Form.Item label={t("workflows.props.temperature")}>
            <InputNumber
              min={0}
              max={2}
              step={0.1}
              value={(d.temperature as number) ?? undefined}
              onChange={(v) => patch({ temperature: v ?? undefined })}
            />
          </Form.Item>
          <Form.Item label={t("workflows.props.jsonOutput")}>
            <Switch checked={!!d.jsonOutput} onChange={(jsonOutput) => patch({ jsonOutput })} />
          </Form.Item>
        </>
      );
    case "knowledge":
      return (
        <>
          <Form.Item label={t("workflows.props.knowledgeBases")}>
            <Select
              mode="multiple"
              value={(d.knowledgeIds as string[]) ?? []}
              onChange={(knowledgeIds) => patch({ knowledgeIds })}
              options={(bases.data?.list ?? []).map((b) => ({ value: b.id, label: b.name }))}
              data-testid="knowledge-bases"
            />
          </Form.Item>
          <TextField data={d} patch={patch} field="query" label={t("workflows.props.query")} testId="knowledge-query" />
          <Form.Item label={t("workflows.props.topK")}>
            <InputNumber min={1} max={50} value={Number(d.topK ?? 5)} onChange={(v) => patch({ topK: v ?? 5 })} />
          </Form.Item>
        </>
      );
    case "tool":
      return (
        <>
          <Form.Item label={t("workflows.props.plugin")}>
            <Select
              showSearch={{ optionFilterProp: "label" }}
              value={str("pluginId") || undefined}
              onChange={(pluginId) => patch({ pluginId })}
              options={(plugins.data ?? []).map((p) => ({ value: p.id, label: p.pluginName }))}
              data-testid="tool-plugin"
            />
          </Form.Item>
          <MapField free data={d} patch={patch} field="params" label={t("workflows.props.params")} testId="tool-params" />
        </>
      );
    case "http":
      return (
        <>
          <Form.Item label={`${t("workflows.props.method")} / ${t("workflows.props.url")}`}>
            <Space.Compact style={{ width: "100%" }}>
              <Select
                style={{ width: 100 }}
                value={str("method") || "GET"}
                onChange={(method) => patch({ method })}
                options={["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"].map((m) => ({ value: m, label: m }))}
              />
              <VarInput value={str("url")} onChange={(url) => patch({ url })} testId="http-url" placeholder="https://" />
            </Space.Compact>
          </Form.Item>
          <Form.Item label={t("workflows.props.query")}>
            <PairsEditor value={(d.query as KeyValue[]) ?? []} onChange={(query) => patch({ query })} testId="http-query" />
          </Form.Item>
          <Form.Item label={t("workflows.props.headers")}>
            <PairsEditor value={(d.headers as KeyValue[]) ?? []} onChange={(headers) => patch({ headers })} testId="http-headers" />
          </Form.Item>
          <Form.Item label={t("workflows.props.bodyType")}>
            <Radio.Group
              optionType="button"
              size="small"
              value={str("bodyType") || "none"}
              onChange={(e) => patch({ bodyType: e.target.value })}
              options={["none", "json", "form", "raw"].map((v) => ({ value: v, label: v }))}
            />
          </Form.Item>
          {str("bodyType") !== "none" && str("bodyType") !== "" && (
            <TextField multiline data={d} patch={patch} field="body" label={t("workflows.props.body")} testId="http-body" />
          )}
        </>
      );
    case "human":
      return <HumanProps data={d} patch={patch} />;
    case "classifier":
      return <ClassifierProps data={d} patch={patch} />;
    case "extractor":
      return <ExtractorProps data={d} patch={patch} />;
    case "assign":
      return <AssignProps data={d} patch={patch} />;
    case "aggregate":
      return <AggregateProps data={d} patch={patch} />;
    case "list":
      return <ListProps data={d} patch={patch} />;
    case "loop":
      return <LoopProps data={d} patch={patch} />;
    case "iteration":
      return <IterationProps data={d} patch={patch} />;
    case "subworkflow":
      return <SubworkflowProps data={d} patch={patch} selfId={workflowId} />;
    case "agent":
      return (
        <>
          <Form.Item label={t("workflows.props.agent")}>
            <Select
              showSearch={{ optionFilterProp: "label" }}
              value={str("agentId") || undefined}
              onChange={(agentId) => patch({ agentId })}
              options={(agents.data?.list ?? []).map((a) => ({ value: a.agentId || a.id, label: a.agentName }))}
            />
          </Form.Item>
          <TextField multiline data={d} patch={patch} field="query" label={t("workflows.props.query")} testId="agent-query" />
        </>
      );
    default:
      return null;
  }
}

/** The selected node's settings: title, the type's own fields, and per-node timeout and retries. */
export function PropertyPanel({
  node,
  variables,
  issues,
  onChange,
  onDelete,
  workflowId,
}: {
  workflowId?: string;
  node: WfNode | null;
  variables: VariableOption[];
  issues: string[];
  onChange: Patch;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  if (!node) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("workflows.editor.selectNode")} style={{ marginTop: 48 }} />;
  return (
    <VariablesContext.Provider value={variables}>
      <Form layout="vertical" size="small" data-testid="wf-props" key={node.id}>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {t(`workflows.nodes.${node.type}`)}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t(`workflows.nodeHints.${node.type}`)} · {t("workflows.props.id")}: <Typography.Text code>{node.id}</Typography.Text>
        </Typography.Paragraph>
        {issues.map((i) => (
          <Typography.Paragraph key={i} type="danger" style={{ fontSize: 12 }}>
            {i}
          </Typography.Paragraph>
        ))}
        <Form.Item label={t("workflows.props.title")}>
          <Input
            value={String(node.data.title ?? "")}
            placeholder={t(`workflows.nodes.${node.type}`)}
            onChange={(e) => onChange({ title: e.target.value })}
            data-testid="node-title"
          />
        </Form.Item>
        <TypeProps node={node} patch={onChange} workflowId={workflowId} />
        {node.type !== "start" && node.type !== "end" && (
          <>
            <Divider style={{ margin: "8px 0 12px" }} />
            <Space>
              <Form.Item label={t("workflows.props.timeout")}>
                <InputNumber
                  min={1}
                  max={600}
                  value={typeof node.data.timeoutMs === "number" ? node.data.timeoutMs / 1000 : undefined}
                  onChange={(v) => onChange({ timeoutMs: v ? Math.round(v * 1000) : undefined })}
                />
              </Form.Item>
              <Form.Item label={t("workflows.props.retries")}>
                <InputNumber
                  min={0}
                  max={10}
                  value={(node.data.retries as number) ?? undefined}
                  onChange={(v) => onChange({ retries: v ?? undefined })}
                />
              </Form.Item>
            </Space>
          </>
        )}
        {node.type !== "start" && (
          <Button danger block icon={<DeleteOutlined />} onClick={onDelete} data-testid="node-delete">
            {t("workflows.editor.deleteNode")}
          </Button>
        )}
      </Form>
    </VariablesContext.Provider>
  );
}
