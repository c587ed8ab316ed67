import { CONDITION_OPERATORS, ITERATION_PARALLELISM_MAX } from "@agentfair/contracts";
import { Button, Checkbox, Form, Input, InputNumber, Radio, Select, Space, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { codeReturnFields } from "../model/nodes";
import type { Assignment, ClassifierClass, CodeOutput, ConditionRule, ExtractorParam, NodeData, VarType } from "../model/types";
import {
  AddButton,
  ConditionRow,
  type FieldProps,
  ModelField,
  RemoveButton,
  removeAt,
  TextField,
  updateAt,
  VarField,
  VariableRows,
} from "./fields";
import { VarInput, VarSelect } from "./var-input";

type Props = FieldProps;

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
  return (
    <Form.Item label={t("workflows.props.returns")} extra={t("workflows.props.returnsHint")}>
      <VariableRows
        rows={outputs}
        onChange={set}
        placeholder={t("workflows.props.outputName")}
        testId="code-outputs"
        nameTestId={(i) => `code-output-name-${i}`}
        newRow={(names) => ({ name: freshName("field", names), type: "string" })}
        addLabel={t("workflows.props.addOutput")}
        addTestId="code-output-add"
        actions={
          <Button
            size="small"
            data-testid="code-output-detect"
            onClick={() => {
              const names = outputs.map((o) => o.name.trim());
              const found = codeReturnFields(str(data, "code"));
              set([...outputs, ...found.filter((f) => !names.includes(f)).map((name) => ({ name, type: "string" as VarType }))]);
            }}
          >
            {t("workflows.props.detectOutputs")}
          </Button>
        }
      />
    </Form.Item>
  );
}

/** A node that asks the model about a query (classifier, extractor): the model, the query, its own fields, the instruction. */
function ModelTaskFields({ data, patch, testId, children }: Props & { testId: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <ModelField data={data} patch={patch} />
      <TextField data={data} patch={patch} field="query" label={t("workflows.props.query")} testId={`${testId}-query`} />
      {children}
      <TextField
        multiline
        data={data}
        patch={patch}
        field="instruction"
        label={t("workflows.props.instruction")}
        testId={`${testId}-instruction`}
      />
    </>
  );
}

export function ClassifierProps({ data, patch }: Props) {
  const { t } = useTranslation();
  const classes = (data.classes as ClassifierClass[] | undefined) ?? [];
  const set = (next: ClassifierClass[]) => patch({ classes: next });
  return (
    <ModelTaskFields data={data} patch={patch} testId="classifier">
      <Form.Item label={t("workflows.props.classes")} extra={t("workflows.props.classesHint")}>
        <div data-testid="classifier-classes">
          {classes.map((c, i) => (
            <Space.Compact key={c.id} style={{ width: "100%", marginBottom: 6 }}>
              <Input style={{ width: 90 }} value={c.id} disabled />
              <Input
                value={c.name}
                placeholder={t("workflows.props.className")}
                data-testid={`classifier-class-${i}`}
                onChange={(e) => set(updateAt(classes, i, { name: e.target.value }))}
              />
              <RemoveButton onClick={() => set(removeAt(classes, i))} />
            </Space.Compact>
          ))}
          <AddButton
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
          </AddButton>
        </div>
      </Form.Item>
    </ModelTaskFields>
  );
}

export function ExtractorProps({ data, patch }: Props) {
  const { t } = useTranslation();
  return (
    <ModelTaskFields data={data} patch={patch} testId="extractor">
      <Form.Item label={t("workflows.props.parameters")}>
        <VariableRows
          rows={(data.parameters as ExtractorParam[] | undefined) ?? []}
          onChange={(parameters) => patch({ parameters })}
          placeholder={t("workflows.props.inputName")}
          testId="extractor-params"
          below={(p, up) => (
            <>
              <Input
                style={{ marginTop: 4 }}
                value={p.description}
                placeholder={t("workflows.props.description")}
                onChange={(e) => up({ description: e.target.value })}
              />
              <Checkbox checked={p.required} onChange={(e) => up({ required: e.target.checked })}>
                {t("workflows.props.required")}
              </Checkbox>
            </>
          )}
          newRow={(names) => ({ name: freshName("param", names), type: "string", description: "", required: false })}
          addLabel={t("workflows.props.addParam")}
        />
      </Form.Item>
    </ModelTaskFields>
  );
}

export function AssignProps({ data, patch }: Props) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t("workflows.props.assignments")}>
      <VariableRows
        rows={(data.assignments as Assignment[] | undefined) ?? []}
        onChange={(assignments) => patch({ assignments })}
        placeholder={t("workflows.props.inputName")}
        testId="assign-rows"
        nameTestId={(i) => `assign-name-${i}`}
        below={(r, up, i) => (
          <div style={{ marginTop: 4 }}>
            <VarInput
              value={r.value}
              onChange={(value) => up({ value })}
              testId={`assign-value-${i}`}
              placeholder={t("workflows.props.outputValue")}
            />
          </div>
        )}
        newRow={(names) => ({ name: freshName("var", names), type: "string", value: "" })}
        addLabel={t("workflows.props.addInput")}
      />
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
              <RemoveButton onClick={() => set(removeAt(vars, i))} />
            </Space.Compact>
          ))}
          <AddButton testId="aggregate-add" onClick={() => set([...vars, ""])}>
            {t("workflows.props.addVariable")}
          </AddButton>
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
      <VarField data={data} patch={patch} field="input" label={t("workflows.props.listInput")} testId="list-input" />
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
      {rules.map((c, k) => (
        <ConditionRow
          key={k}
          rule={c}
          onChange={(r) => set(updateAt(rules, k, r))}
          onRemove={() => set(removeAt(rules, k))}
          testId={`loop-break-${k}`}
          style={{ marginBottom: 6 }}
        />
      ))}
      <AddButton link onClick={() => set([...rules, { variable: "", operator: "equals", value: "" }])}>
        {t("workflows.props.addCondition")}
      </AddButton>
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
      <PassOutputField data={data} patch={patch} testId="loop-output" />
    </>
  );
}

/** What a loop or an iteration hands on from each pass. */
function PassOutputField({ data, patch, testId }: Props & { testId: string }) {
  const { t } = useTranslation();
  return (
    <VarField
      data={data}
      patch={patch}
      field="output"
      label={t("workflows.props.passOutput")}
      extra={t("workflows.props.passOutputHint")}
      testId={testId}
    />
  );
}

export function IterationProps({ data, patch }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t("workflows.props.iterationHint")}
      </Typography.Paragraph>
      <VarField data={data} patch={patch} field="items" label={t("workflows.props.items")} testId="iteration-items" />
      <Form.Item label={t("workflows.props.parallelism")} extra={t("workflows.props.parallelismHint", { max: ITERATION_PARALLELISM_MAX })}>
        <InputNumber
          min={1}
          max={ITERATION_PARALLELISM_MAX}
          value={Number(data.parallelism ?? 1)}
          onChange={(v) => patch({ parallelism: Math.min(ITERATION_PARALLELISM_MAX, Math.max(1, v ?? 1)) })}
          data-testid="iteration-parallelism"
        />
      </Form.Item>
      <PassOutputField data={data} patch={patch} testId="iteration-output" />
    </>
  );
}
