import { DeleteOutlined, PlusOutlined, RobotOutlined } from "@ant-design/icons";
import { RULE_COPY_SUFFIX, RULE_DIALOG_WIDTH, RULE_INPUT_KEY, type Rule, type RuleParam, type RuleSaveRequest } from "@agentfair/contracts";
import { Alert, App, Button, Col, Divider, Form, Input, Modal, Row, Select, Space, Switch, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { HttpError } from "../../../lib/http";
import { aiExpression, aiSql } from "../api/ai";
import { useRuleForms } from "../api/forms";
import { useRuleFunctions } from "../api/functions";
import { saveRule } from "../api/save-rule";
import { type RuleTestResult, testRule } from "../api/test-rule";
import { FormulaEditor } from "./formula-editor";

interface FormValues {
  name: string;
  ruleKey: string;
  description: string;
  remark: string;
  useData: 0 | 1;
  params: RuleParam[];
  expression: string;
  aiRemark: string;
  isPublic: boolean;
  category: string;
  formKeys: string[];
  dirId?: string | null;
  [input: string]: unknown;
}
const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * The server refuses an expression the model wrote that does not parse as "生成失败：<expression> — <parser
 * error>" (generate failed: …): people get what to do instead of the parser's words.
 */
export function readableAiError(msg: string, t: (key: string) => string): string {
  return /^(生成失败：|generate failed: )[\s\S]* — [\s\S]+$/.test(msg) ? t("rules.aiInvalid") : msg;
}

/** The project inputs (input1..N) an SQL field's query reads as :input1. */
export function sqlInputKeys(params: RuleParam[]): string[] {
  const keys = new Set<string>();
  for (const p of params) if (p?.type === "sql") for (const m of (p.sql ?? "").matchAll(/:(input\d+)\b/g)) keys.add(m[1] as string);
  return [...keys].sort();
}

/**
 * The rules editor dialog (doc 2 §2, width 840): add or edit; save, save as (clears id and key,
 * appends a copy suffix), test, AI expression from the remark, AI SQL for an SQL field.
 */
export function RuleDialog({
  rule,
  projectId,
  dirId,
  fieldConfig,
  onClose,
  onSaved,
}: {
  rule: Rule | null;
  projectId: string;
  dirId: string | null;
  fieldConfig: { key: string; label: string }[];
  onClose: () => void;
  onSaved: (r: Rule) => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const lang = i18n.language === "en" ? "en" : "zh";
  const [form] = Form.useForm<FormValues>();
  const functions = useRuleFunctions(lang);
  const forms = useRuleForms(projectId);
  const [id, setId] = useState<string | null>(rule?.id ?? null);
  const [expressionCn, setExpressionCn] = useState(rule?.expressionCn ?? "");
  const [testValues, setTestValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<RuleTestResult | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const params = (Form.useWatch("params", form) ?? []) as RuleParam[];
  const remark = (Form.useWatch("remark", form) ?? "") as string;
  const aiRemark = (Form.useWatch("aiRemark", form) ?? "") as string;
  const stale = aiRemark.trim() !== "" && remark.trim() !== aiRemark.trim();
  // What a test reads, said under 测试参数: basic fields typed here, SQL fields queried with the
  // project inputs (input1..N) they name, which are the fields at the top, repeated here.
  const formValues = (Form.useWatch((v: FormValues) => v, { form, preserve: true }) ?? {}) as Record<string, unknown>;
  const basicParams = params.filter((p) => p?.name && p.type !== "sql");
  const sqlParams = params.filter((p) => p?.name && p.type === "sql");
  const inputKeys = sqlInputKeys(params);
  const testInputs = inputKeys.map((key) => ({ key, label: fieldConfig.find((f) => f.key === key)?.label ?? key }));
  const sqlNames = sqlParams.map((p) => p.name).join(t("rules.listSeparator"));
  const testHint =
    [
      basicParams.length > 0 ? t("rules.testHintBasic") : "",
      sqlParams.length > 0
        ? testInputs.length > 0
          ? t("rules.testHintSql", { sql: sqlNames, inputs: inputKeys.map((k) => `:${k}`).join(t("rules.listSeparator")) })
          : t("rules.testHintSqlNoInputs", { sql: sqlNames })
        : "",
    ]
      .filter(Boolean)
      .join(t("rules.sentenceSeparator")) || t("rules.testHintNone");

  const initial: FormValues = rule
    ? { ...rule, dirId: rule.dirId, useData: rule.useData === 0 ? 0 : 1, params: rule.params }
    : {
        dirId,
        name: "",
        ruleKey: "",
        description: "",
        remark: "",
        useData: 1,
        formKeys: [],
        params: [{ name: "", type: "basic", description: "", tableName: "", sql: "" }],
        expression: "",
        aiRemark: "",
        isPublic: false,
        category: "",
      };

  // The calls are silent (api/*.ts): this is the one message of a failure.
  const run = async (what: string, fn: () => Promise<void>) => {
    setBusy(what);
    try {
      await fn();
    } catch (e) {
      if (e instanceof HttpError && e.message) message.error(what === "ai" ? readableAiError(e.message, t) : e.message);
    } finally {
      setBusy(null);
    }
  };

  const save = () =>
    run("save", async () => {
      const values = await form.validateFields().catch(() => null);
      if (!values) return;
      const body: RuleSaveRequest = { ...values, id, projectId, dirId: values.dirId ?? dirId };
      const saved = await saveRule(body);
      message.success(t("rules.saveOk"));
      setId(saved.id);
      setExpressionCn(saved.expressionCn);
      onSaved(saved);
    });

  const saveAs = () => {
    const name = (form.getFieldValue("name") as string) ?? "";
    setId(null);
    form.setFieldsValue({ name: `${name}${RULE_COPY_SUFFIX[lang]}`, ruleKey: "" });
    void form.validateFields(["ruleKey"]).catch(() => undefined);
  };

  const test = () =>
    run("test", async () => {
      const expression = (form.getFieldValue("expression") as string) ?? "";
      const values: Record<string, unknown> = {};
      for (const p of params) if (p?.name && p.type !== "sql") values[p.name] = testValues[p.name] ?? "";
      // SQL fields read the project's input1..N as the form holds them.
      for (const [k, v] of Object.entries(form.getFieldsValue(true) as Record<string, unknown>))
        if (RULE_INPUT_KEY.test(k) && typeof v === "string") values[k] = v;
      const r = await testRule(
        expression,
        values,
        params.filter((p) => p?.type === "sql" && p.name),
      );
      setResult(r);
      message.success(t("rules.testOk"));
    });

  const generate = () =>
    run("ai", async () => {
      const text = ((form.getFieldValue("remark") as string) ?? "").trim();
      if (!text) {
        message.warning(t("rules.remarkRequired"));
        return;
      }
      const r = await aiExpression({ projectId, remark: text, params: params.filter((p) => p?.name) });
      form.setFieldsValue({ expression: r.expression, aiRemark: r.aiRemark });
      setExpressionCn(r.expressionCn);
      setResult(null);
      message.success(t("rules.generated"));
    });

  const generateSql = (index: number) =>
    run(`sql-${index}`, async () => {
      const p = params[index];
      const question = (form.getFieldValue(["params", index, "description"]) as string) ?? "";
      if (!p?.tableName || !p.name || !question.trim()) {
        message.warning(t("rules.sqlFieldsRequired"));
        return;
      }
      const r = await aiSql({ projectId, question, name: p.name, tableNames: [p.tableName] });
      form.setFieldValue(["params", index, "sql"], r.sql);
    });

  return (
    <Modal
      open
      width={RULE_DIALOG_WIDTH}
      title={id ? t("rules.dialogEdit") : t("rules.dialogAdd")}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Space>
          <Button onClick={onClose}>{t("rules.cancel")}</Button>
          <Button onClick={test} loading={busy === "test"} data-testid="rule-test">
            {t("rules.test")}
          </Button>
          <Button onClick={saveAs} disabled={!id} data-testid="rule-save-as">
            {t("rules.saveAs")}
          </Button>
          <Button type="primary" onClick={save} loading={busy === "save"} data-testid="rule-save">
            {t("rules.save")}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" initialValues={initial} requiredMark>
        <Form.Item name="aiRemark" hidden>
          <Input />
        </Form.Item>
        <Form.Item name="dirId" hidden>
          <Input />
        </Form.Item>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="name" label={t("rules.name")} rules={[{ required: true, whitespace: true, message: t("rules.nameRequired") }]}>
              <Input maxLength={100} data-testid="rule-name" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="ruleKey"
              label={t("rules.ruleKey")}
              rules={[
                { required: true, message: t("rules.required", { field: t("rules.ruleKey") }) },
                { pattern: /^[A-Za-z][A-Za-z0-9_]{0,63}$/, message: "a-z A-Z 0-9 _" },
              ]}
            >
              <Input maxLength={64} placeholder={t("rules.ruleKeyPlaceholder")} data-testid="rule-key" />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item
              name="description"
              label={t("rules.description")}
              rules={[{ required: true, whitespace: true, message: t("rules.required", { field: t("rules.description") }) }]}
            >
              <Input maxLength={2000} data-testid="rule-description" />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item name="category" label={t("rules.category")}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item
              name="useData"
              label={t("rules.useData")}
              getValueProps={(v) => ({ checked: v === 1 })}
              getValueFromEvent={(c: boolean) => (c ? 1 : 0)}
            >
              <Switch checkedChildren={t("rules.enabled")} unCheckedChildren={t("rules.disabled")} />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item name="isPublic" label={t("rules.visibility")} valuePropName="checked">
              <Switch checkedChildren={t("rules.public")} unCheckedChildren={t("rules.private")} />
            </Form.Item>
          </Col>
        </Row>
        {fieldConfig.length > 0 && (
          <Row gutter={12}>
            {fieldConfig.map((f) => (
              <Col span={8} key={f.key}>
                <Form.Item name={f.key} label={f.label}>
                  <Input maxLength={500} />
                </Form.Item>
              </Col>
            ))}
          </Row>
        )}

        <Typography.Text strong>{t("rules.params")}</Typography.Text>
        <Form.List name="params">
          {(fields, { add, remove }) => (
            <div style={{ marginTop: 6 }}>
              {fields.map((f, index) => {
                const sqlField = params[index]?.type === "sql";
                return (
                  <div key={f.key} style={{ background: "#fafafa", borderRadius: 6, padding: "8px 8px 0", marginBottom: 6 }}>
                    <Row gutter={8}>
                      <Col span={6}>
                        <Form.Item
                          name={[f.name, "name"]}
                          rules={[{ required: true, message: t("rules.required", { field: t("rules.paramName") }) }]}
                        >
                          <Input placeholder={t("rules.paramName")} data-testid="param-name" />
                        </Form.Item>
                      </Col>
                      <Col span={5}>
                        <Form.Item name={[f.name, "type"]}>
                          <Select
                            options={(["basic", "sql"] as const).map((v) => ({ value: v, label: t(`rules.paramTypes.${v}`) }))}
                            data-testid="param-type"
                          />
                        </Form.Item>
                      </Col>
                      <Col span={sqlField ? 7 : 12}>
                        <Form.Item name={[f.name, "description"]}>
                          <Input
                            placeholder={sqlField ? t("rules.sqlQuestion") : t("rules.paramDescription")}
                            data-testid="param-description"
                          />
                        </Form.Item>
                      </Col>
                      {sqlField && (
                        <Col span={5}>
                          <Form.Item name={[f.name, "tableName"]}>
                            <Select
                              placeholder={t("rules.tableName")}
                              options={(forms.data ?? []).map((x) => ({ value: x.name, label: x.name }))}
                              data-testid="param-table"
                            />
                          </Form.Item>
                        </Col>
                      )}
                      <Col span={1}>
                        <Button type="text" icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t("common.remove")} />
                      </Col>
                    </Row>
                    {sqlField && (
                      <Row gutter={8}>
                        <Col span={19}>
                          <Form.Item name={[f.name, "sql"]} extra={t("rules.sqlInputsHint")}>
                            <Input.TextArea
                              rows={2}
                              placeholder="SELECT sum(amount) FROM orders WHERE region = :input1"
                              style={{ fontFamily: "monospace" }}
                              data-testid="param-sql"
                            />
                          </Form.Item>
                        </Col>
                        <Col span={5}>
                          <Button
                            icon={<RobotOutlined />}
                            onClick={() => generateSql(index)}
                            loading={busy === `sql-${index}`}
                            data-testid="param-ai-sql"
                          >
                            {t("rules.aiSql")}
                          </Button>
                        </Col>
                      </Row>
                    )}
                  </div>
                );
              })}
              <Button
                type="dashed"
                size="small"
                icon={<PlusOutlined />}
                onClick={() => add({ name: "", type: "basic", description: "", tableName: "", sql: "" })}
                data-testid="param-add"
              >
                {t("rules.addParam")}
              </Button>
            </div>
          )}
        </Form.List>

        <Divider style={{ margin: "12px 0" }} />
        <Form.Item label={t("rules.remark")} style={{ marginBottom: 8 }}>
          <Space.Compact style={{ width: "100%" }}>
            <Form.Item name="remark" noStyle>
              <Input.TextArea rows={2} maxLength={4000} placeholder={t("rules.remarkPlaceholder")} data-testid="rule-remark" />
            </Form.Item>
            <Button
              icon={<RobotOutlined />}
              onClick={generate}
              loading={busy === "ai"}
              style={{ height: "auto" }}
              data-testid="rule-ai-expression"
            >
              {t("rules.aiExpression")}
            </Button>
          </Space.Compact>
        </Form.Item>
        {stale && <Alert type="warning" showIcon message={t("rules.stale")} style={{ marginBottom: 8 }} data-testid="rule-stale" />}
        <Form.Item
          name="expression"
          label={t("rules.expression")}
          rules={[{ required: true, message: t("rules.required", { field: t("rules.expression") }) }]}
          style={{ marginBottom: 8 }}
        >
          <FormulaEditor functions={functions.data ?? []} params={params.filter((p) => p?.name)} testId="rule-expression" />
        </Form.Item>
        {expressionCn && (
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }} data-testid="rule-expression-cn">
            {t("rules.expressionCn")}
            {t("common.colon")}
            {expressionCn}
          </Typography.Paragraph>
        )}

        <Divider style={{ margin: "12px 0" }} />
        <Typography.Text strong>{t("rules.testValues")}</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: "4px 0 0" }} data-testid="rule-test-hint">
          {testHint}
        </Typography.Paragraph>
        <Row gutter={[8, 8]} style={{ marginTop: 6 }}>
          {basicParams.map((p) => (
            <Col span={8} key={p.name}>
              <Input
                addonBefore={p.name}
                value={testValues[p.name] ?? ""}
                onChange={(e) => setTestValues((v) => ({ ...v, [p.name]: e.target.value }))}
                data-testid={`test-value-${p.name}`}
              />
            </Col>
          ))}
          {testInputs.map((f) => (
            <Col span={8} key={f.key}>
              <Input
                addonBefore={`${f.label} (:${f.key})`}
                value={typeof formValues[f.key] === "string" ? (formValues[f.key] as string) : ""}
                onChange={(e) => form.setFieldValue(f.key, e.target.value)}
                maxLength={500}
                data-testid={`test-input-${f.key}`}
              />
            </Col>
          ))}
        </Row>
        {result && (
          <div style={{ marginTop: 8 }} data-testid="rule-test-result">
            <Space>
              <Typography.Text>
                {t("rules.result")}
                {t("common.colon")}
              </Typography.Text>
              <Tag color="blue" style={{ fontSize: 14 }}>
                {show(result.value)}
              </Tag>
            </Space>
            {result.trace.length > 0 && (
              <Table
                size="small"
                style={{ marginTop: 6 }}
                pagination={false}
                rowKey={(_, i) => String(i)}
                dataSource={result.trace.slice(-8)}
                columns={[
                  { title: t("rules.trace"), dataIndex: "expression", render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
                  { title: t("rules.result"), dataIndex: "value", width: 160, render: show },
                ]}
              />
            )}
          </div>
        )}
      </Form>
    </Modal>
  );
}
