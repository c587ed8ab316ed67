import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { CONDITION_OPERATORS, ITERATION_PARALLELISM_MAX } from "@agentfair/contracts";
import { Button, Checkbox, Form, Input, InputNumber, Radio, Select, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { codeReturnFields } from "../model/nodes";
import type { Assignment, ClassifierClass, CodeOutput, ConditionRule, ExtractorParam, NodeData, VarType } from "../model/types";
import { VAR_TYPES } from "../model/types";
import { type FieldProps, ModelField, TextField } from "./fields";
import { VarInput, VarSelect } from "./var-input";

type Props = FieldProps;

const typeOptions = VAR_TYPES.map((v) => ({ value: v, label: v }));
const str = (d: NodeData, k: string) => String(d[k] ?? "");

/** A fresh name not in the list: `${base}${n}`. */
function freshName(base: string, taken: string[]): string {
  for (let n = taken.length + 1; ; n++) if (!taken.includes(`${base}${n}`)) return `${base}${n}`;
}

/** The declared outputs of a code node: what later nodes may reference (the server checks against them). */
export function CodeOutputs({ data, patch }: Props) {
  const { t } = useTranslation();
  const outputs = (data.outputs as CodeOutput[] | undefined) ?? [];
  const set = (next: CodeOutput[]) => patch({ outputs: next });
  const names = outputs.map((o) => o.name.trim());
  return (
    <Form.Item label={t("workflows.props.returns")} extra={t("workflows.props.returnsHint")}>
      <div data-testid="code-outputs">
        {outputs.map((o, i) => {
          const dup = !!o.name.trim() && names.indexOf(o.name.trim()) !== i;
          return (
            <Space.Compact key={i} style={{ width: "100%", marginBottom: 6 }}>
              <Input
                status={dup || !o.name.trim() ? "error" : undefined}
                value={o.name}
                placeholder={t("workflows.props.outputName")}
                data-testid={`code-output-name-${i}`}
                onChange={(e) => set(outputs.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
              />
              <Select
                style={{ width: 110 }}
                value={o.type}
                options={typeOptions}
                onChange={(type: VarType) => set(outputs.map((x, j) => (j === i ? { ...x, type } : x)))}
              />
              <Button
                icon={<DeleteOutlined />}
                aria-label={t("workflows.props.remove")}
                onClick={() => set(outputs.filter((_, j) => j !== i))}
              />
            </Space.Compact>
          );
        })}
        <Space>
          <Button
            size="small"
            icon={<PlusOutlined />}
            data-testid="code-output-add"
            onClick={() => set([...outputs, { name: freshName("field", names), type: "string" }])}
          >
            {t("workflows.props.addOutput")}
          </Button>
          <Button
            size="small"
            data-testid="code-output-detect"
            onClick={() => {
              const found = codeReturnFields(str(data, "code"));
              set([...outputs, ...found.filter((f) => !names.includes(f)).map((name) => ({ name, type: "string" as VarType }))]);
            }}
          >
            {t("workflows.props.detectOutputs")}
          </Button>
        </Space>
      </div>
    </Form.Item>
  );
}

export function ClassifierProps({ data, patch }: Props) {
  const { t } = useTranslation();
  const classes = (data.classes as ClassifierClass[] | undefined) ?? [];
  const set = (next: ClassifierClass[]) => patch({ classes: next });
  return (
    <>
      <ModelField data={data} patch={patch} />
      <TextField data={data} patch={patch} field="query" label={t("workflows.props.query")} testId="classifier-query" />
      <Form.Item label={t("workflows.props.classes")} extra={t("workflows.props.classesHint")}>
        <div data-testid="classifier-classes">
          {classes.map((c, i) => (
            <Space.Compact key={c.id} style={{ width: "100%", marginBottom: 6 }}>
              <Input style={{ width: 90 }} value={c.id} disabled />
              <Input
                value={c.name}
                placeholder={t("workflows.props.className")}
                data-testid={`classifier-class-${i}`}
                onChange={(e) => set(classes.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
              />
              <Button
                icon={<DeleteOutlined />}
                aria-label={t("workflows.props.remove")}
                onClick={() => set(classes.filter((_, j) => j !== i))}
              />
            </Space.Compact>
          ))}
          <Button
            size="small"
            icon={<PlusOutlined />}
            onClick={() =>
              set([
                ...classes,
                {
                  id: freshName(
                    "class_",
                    classes.map((c) => c.id),
                  ),
                  name: "",
                },
              ])
            }
          >
            {t("workflows.props.addClass")}
          </Button>
        </div>
      </Form.Item>
      <TextField
        multiline
        data={data}
        patch={patch}
        field="instruction"
        label={t("workflows.props.instruction")}
        testId="classifier-instruction"
      />
    </>
  );
}

export function ExtractorProps({ data, patch }: Props) {
  const { t } = useTranslation();
  const params = (data.parameters as ExtractorParam[] | undefined) ?? [];
  const set = (next: ExtractorParam[]) => patch({ parameters: next });
  const names = params.map((p) => p.name.trim());
  return (
    <>
      <ModelField data={data} patch={patch} />
      <TextField data={data} patch={patch} field="query" label={t("workflows.props.query")} testId="extractor-query" />
      <Form.Item label={t("workflows.props.parameters")}>
        <div data-testid="extractor-params">
          {params.map((p, i) => {
            const dup = !!p.name.trim() && names.indexOf(p.name.trim()) !== i;
            const up = (v: Partial<ExtractorParam>) => set(params.map((x, j) => (j === i ? { ...x, ...v } : x)));
            return (
              <div key={i} style={{ marginBottom: 8 }}>
                <Space.Compact style={{ width: "100%" }}>
                  <Input
                    status={dup || !p.name.trim() ? "error" : undefined}
                    value={p.name}
                    placeholder={t("workflows.props.inputName")}
                    onChange={(e) => up({ name: e.target.value })}
                  />
                  <Select style={{ width: 110 }} value={p.type} options={typeOptions} onChange={(type: VarType) => up({ type })} />
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t("workflows.props.remove")}
                    onClick={() => set(params.filter((_, j) => j !== i))}
                  />
                </Space.Compact>
                <Input
                  style={{ marginTop: 4 }}
                  value={p.description}
                  placeholder={t("workflows.props.description")}
                  onChange={(e) => up({ description: e.target.value })}
                />
                <Checkbox checked={p.required} onChange={(e) => up({ required: e.target.checked })}>
                  {t("workflows.props.required")}
                </Checkbox>
                {dup && (
                  <Typography.Text type="danger">{t("workflows.validation.duplicateVariable", { name: p.name.trim() })}</Typography.Text>
                )}
              </div>
            );
          })}
          <Button
            size="small"
            icon={<PlusOutlined />}
            onClick={() => set([...params, { name: freshName("param", names), type: "string", description: "", required: false }])}
          >
            {t("workflows.props.addParam")}
          </Button>
        </div>
      </Form.Item>
      <TextField
        multiline
        data={data}
        patch={patch}
        field="instruction"
        label={t("workflows.props.instruction")}
        testId="extractor-instruction"
      />
    </>
  );
}

export function AssignProps({ data, patch }: Props) {
  const { t } = useTranslation();
  const rows = (data.assignments as Assignment[] | undefined) ?? [];
  const set = (next: Assignment[]) => patch({ assignments: next });
  const names = rows.map((r) => r.name.trim());
  return (
    <Form.Item label={t("workflows.props.assignments")}>
      <div data-testid="assign-rows">
        {rows.map((r, i) => {
          const dup = !!r.name.trim() && names.indexOf(r.name.trim()) !== i;
          const up = (v: Partial<Assignment>) => set(rows.map((x, j) => (j === i ? { ...x, ...v } : x)));
          return (
            <div key={i} style={{ marginBottom: 8 }}>
              <Space.Compact style={{ width: "100%" }}>
                <Input
                  status={dup || !r.name.trim() ? "error" : undefined}
                  value={r.name}
                  placeholder={t("workflows.props.inputName")}
                  data-testid={`assign-name-${i}`}
                  onChange={(e) => up({ name: e.target.value })}
                />
                <Select style={{ width: 110 }} value={r.type} options={typeOptions} onChange={(type: VarType) => up({ type })} />
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t("workflows.props.remove")}
                  onClick={() => set(rows.filter((_, j) => j !== i))}
                />
              </Space.Compact>
              <div style={{ marginTop: 4 }}>
                <VarInput
                  value={r.value}
                  onChange={(value) => up({ value })}
                  testId={`assign-value-${i}`}
                  placeholder={t("workflows.props.outputValue")}
                />
              </div>
              {dup && (
                <Typography.Text type="danger">{t("workflows.validation.duplicateVariable", { name: r.name.trim() })}</Typography.Text>
              )}
            </div>
          );
        })}
        <Button
          size="small"
          icon={<PlusOutlined />}
          onClick={() => set([...rows, { name: freshName("var", names), type: "string", value: "" }])}
        >
          {t("workflows.props.addInput")}
        </Button>
      </div>
    </Form.Item>
  );
}

export function AggregateProps({ data, patch }: Props) {
  const { t } = useTranslation();
  const vars = (data.variables as string[] | undefined) ?? [];
  const set = (variables: string[]) => patch({ variables });
  return (
    <>
      <Form.Item label={t("workflows.props.aggregateMode")}>
        <Radio.Group
          optionType="button"
          size="small"
          value={str(data, "mode") || "first"}
          onChange={(e) => patch({ mode: e.target.value })}
          options={[
            { value: "first", label: t("workflows.props.aggregateFirst") },
            { value: "array", label: t("workflows.props.aggregateArray") },
          ]}
        />
      </Form.Item>
      <Form.Item label={t("workflows.props.aggregateVariables")}>
        <div data-testid="aggregate-vars">
          {vars.map((v, i) => (
            <Space.Compact key={i} style={{ width: "100%", marginBottom: 6 }}>
              <VarSelect value={v} onChange={(nv) => set(vars.map((x, j) => (j === i ? nv : x)))} testId={`aggregate-var-${i}`} />
              <Button
                icon={<DeleteOutlined />}
                aria-label={t("workflows.props.remove")}
                onClick={() => set(vars.filter((_, j) => j !== i))}
              />
            </Space.Compact>
          ))}
          <Button size="small" icon={<PlusOutlined />} data-testid="aggregate-add" onClick={() => set([...vars, ""])}>
            {t("workflows.props.addVariable")}
          </Button>
        </div>
      </Form.Item>
    </>
  );
}

const LIST_OPS = ["filter", "sort", "slice", "first", "last", "length", "unique", "reverse", "join"] as const;

export function ListProps({ data, patch }: Props) {
  const { t } = useTranslation();
  const op = str(data, "operation") || "first";
  const filter = (data.filter as ConditionRule | undefined) ?? { variable: "", operator: "equals", value: "" };
  return (
    <>
      <Form.Item label={t("workflows.props.listInput")}>
        <VarSelect value={str(data, "input")} onChange={(input) => patch({ input })} testId="list-input" />
      </Form.Item>
      <Form.Item label={t("workflows.props.listOperation")}>
        <Select
          value={op}
          onChange={(operation) => patch({ operation })}
          options={LIST_OPS.map((o) => ({ value: o, label: t(`workflows.props.listOps.${o}`) }))}
          data-testid="list-operation"
        />
      </Form.Item>
      {op === "filter" && (
        <Form.Item label={t("workflows.props.listFilter")} extra={t("workflows.props.itemPathHint")}>
          <Space.Compact style={{ width: "100%" }}>
            <Input
              style={{ width: "35%" }}
              value={filter.variable}
              placeholder={t("workflows.props.itemPath")}
              onChange={(e) => patch({ filter: { ...filter, variable: e.target.value } })}
            />
            <Select
              style={{ width: "30%" }}
              value={filter.operator}
              onChange={(operator) => patch({ filter: { ...filter, operator } })}
              options={CONDITION_OPERATORS.map((o) => ({ value: o, label: t(`workflows.props.ops.${o}`) }))}
            />
            <Input
              style={{ width: "35%" }}
              value={filter.value}
              placeholder={t("workflows.props.right")}
              onChange={(e) => patch({ filter: { ...filter, value: e.target.value } })}
            />
          </Space.Compact>
        </Form.Item>
      )}
      {op === "sort" && (
        <Form.Item label={t("workflows.props.sortKey")} extra={t("workflows.props.itemPathHint")}>
          <Space.Compact style={{ width: "100%" }}>
            <Input value={str(data, "key")} placeholder={t("workflows.props.itemPath")} onChange={(e) => patch({ key: e.target.value })} />
            <Select
              style={{ width: 110 }}
              value={str(data, "order") || "asc"}
              onChange={(order) => patch({ order })}
              options={[
                { value: "asc", label: t("workflows.props.asc") },
                { value: "desc", label: t("workflows.props.desc") },
              ]}
            />
          </Space.Compact>
        </Form.Item>
      )}
      {op === "slice" && (
        <Form.Item label={t("workflows.props.sliceRange")}>
          <Space>
            <InputNumber value={Number(data.start ?? 0)} onChange={(v) => patch({ start: v ?? 0 })} />
            <InputNumber value={(data.end as number | undefined) ?? null} onChange={(v) => patch({ end: v ?? undefined })} />
          </Space>
        </Form.Item>
      )}
      {op === "join" && (
        <Form.Item label={t("workflows.props.separator")}>
          <Input value={str(data, "separator")} onChange={(e) => patch({ separator: e.target.value })} />
        </Form.Item>
      )}
    </>
  );
}

/** The break conditions of a loop (any upstream variable, the loop's `index` and `last`, its body's outputs). */
function BreakConditions({ data, patch }: Props) {
  const { t } = useTranslation();
  const rules = (data.breakConditions as ConditionRule[] | undefined) ?? [];
  const set = (breakConditions: ConditionRule[]) => patch({ breakConditions });
  return (
    <div data-testid="loop-break">
      {rules.length > 1 && (
        <Radio.Group
          size="small"
          optionType="button"
          value={str(data, "logic") || "and"}
          onChange={(e) => patch({ logic: e.target.value })}
          options={[
            { value: "and", label: t("workflows.props.and") },
            { value: "or", label: t("workflows.props.or") },
          ]}
          style={{ marginBottom: 6 }}
        />
      )}
      {rules.map((c, k) => {
        const up = (r: Partial<ConditionRule>) => set(rules.map((x, j) => (j === k ? { ...x, ...r } : x)));
        return (
          <div key={k} style={{ marginBottom: 6 }}>
            <VarSelect value={c.variable} onChange={(variable) => up({ variable })} testId={`loop-break-${k}-left`} />
            <Space.Compact style={{ width: "100%", marginTop: 4 }}>
              <Select
                style={{ width: 120 }}
                value={c.operator}
                onChange={(operator) => up({ operator })}
                options={CONDITION_OPERATORS.map((op) => ({ value: op, label: t(`workflows.props.ops.${op}`) }))}
              />
              <Input value={c.value} placeholder={t("workflows.props.right")} onChange={(e) => up({ value: e.target.value })} />
              <Button
                icon={<DeleteOutlined />}
                aria-label={t("workflows.props.remove")}
                onClick={() => set(rules.filter((_, j) => j !== k))}
              />
            </Space.Compact>
          </div>
        );
      })}
      <Button
        size="small"
        type="link"
        icon={<PlusOutlined />}
        onClick={() => set([...rules, { variable: "", operator: "equals", value: "" }])}
      >
        {t("workflows.props.addCondition")}
      </Button>
    </div>
  );
}

export function LoopProps({ data, patch }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t("workflows.props.loopHint")}
      </Typography.Paragraph>
      <Form.Item label={t("workflows.props.maxIterations")}>
        <InputNumber
          min={1}
          max={1000}
          value={Number(data.maxIterations ?? 10)}
          onChange={(v) => patch({ maxIterations: v ?? 10 })}
          data-testid="loop-max"
        />
      </Form.Item>
      <Form.Item label={t("workflows.props.breakConditions")}>
        <BreakConditions data={data} patch={patch} />
      </Form.Item>
      <Form.Item label={t("workflows.props.passOutput")} extra={t("workflows.props.passOutputHint")}>
        <VarSelect value={str(data, "output")} onChange={(output) => patch({ output })} testId="loop-output" />
      </Form.Item>
    </>
  );
}

export function IterationProps({ data, patch }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t("workflows.props.iterationHint")}
      </Typography.Paragraph>
      <Form.Item label={t("workflows.props.items")}>
        <VarSelect value={str(data, "items")} onChange={(items) => patch({ items })} testId="iteration-items" />
      </Form.Item>
      <Form.Item label={t("workflows.props.parallelism")} extra={t("workflows.props.parallelismHint", { max: ITERATION_PARALLELISM_MAX })}>
        <InputNumber
          min={1}
          max={ITERATION_PARALLELISM_MAX}
          value={Number(data.parallelism ?? 1)}
          onChange={(v) => patch({ parallelism: Math.min(ITERATION_PARALLELISM_MAX, Math.max(1, v ?? 1)) })}
          data-testid="iteration-parallelism"
        />
      </Form.Item>
      <Form.Item label={t("workflows.props.passOutput")} extra={t("workflows.props.passOutputHint")}>
        <VarSelect value={str(data, "output")} onChange={(output) => patch({ output })} testId="iteration-output" />
      </Form.Item>
    </>
  );
}
