import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import {
  AGENT_MODE_PRESETS,
  AGENT_NAME_MAX,
  type AgentDraft,
  CHAT_INSIGHT_FEATURES,
  DEFAULT_TAGS,
  MAX_TOKENS_LIMIT,
  MODEL_MODES_LIST,
  PERSONA_MAX_BYTES,
  PRESET_QUESTIONS_MAX,
  renameError,
  utf8Bytes,
  VARIABLE_NAME_PATTERN,
  VARIABLES_MAX,
} from "@agentfair/contracts";
import {
  Button,
  Card,
  Checkbox,
  Col,
  Empty,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Slider,
  Space,
  Switch,
  Tag,
  Typography,
} from "antd";
import { useTranslation } from "react-i18next";
import { IconPickerButton } from "../../../components/icon-picker/icon-picker";
import { useLabels } from "../api/labels";
import { useModelOptions, useRerankModelOptions } from "../api/model-options";
import { useMyDesigns } from "../api/my-designs";
import { useMyKnowledgeBases } from "../api/my-knowledge-bases";
import { useMinePage } from "../api/mine-page";
import { type BindableToolKind, useMyPlugins } from "../api/my-plugins";
import { RulePicker } from "./rule-picker";
import { validated } from "../../../lib/form";

/** Bindings without a picker yet: shown as they are. */

/** A multiple choice of the caller's own plugins (1), workflows (2) or MCP tools (3); unpublished ones are marked. */
function ToolPicker({
  kind,
  placeholder,
  testId,
  ...field
}: {
  kind: BindableToolKind;
  placeholder: string;
  testId: string;
  value?: string[];
  onChange?: (ids: string[]) => void;
}) {
  const { t } = useTranslation();
  const tools = useMyPlugins(kind);
  return (
    <Select
      {...field}
      mode="multiple"
      allowClear
      loading={tools.isLoading}
      placeholder={placeholder}
      notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("agents.studio.noTools")} />}
      showSearch={{
        filterOption: (input, o) =>
          String(o?.title ?? "")
            .toLowerCase()
            .includes(input.trim().toLowerCase()),
      }}
      options={(tools.data?.content ?? []).map((p) => ({
        value: p.id,
        title: p.pluginName,
        label: (
          <span>
            {p.pluginName}
            {p.pluginType !== "MCP" && p.pluginStatus !== "C90_Released" && (
              <Tag color="gold" style={{ marginInlineStart: 6 }}>
                {t("agents.studio.unpublished")}
              </Tag>
            )}
          </span>
        ),
      }))}
      data-testid={testId}
    />
  );
}

function SliderField({
  name,
  label,
  min,
  max,
  step,
  disabled,
  testId,
}: {
  testId?: string;
  name: (string | number)[];
  label: string;
  min: number;
  max: number;
  step: number;
  disabled: boolean;
}) {
  return (
    <Form.Item label={label} style={{ marginBottom: 8 }}>
      <Row gutter={12} align="middle">
        <Col flex="auto">
          <Form.Item name={name} noStyle>
            <Slider min={min} max={max} step={step} disabled={disabled} />
          </Form.Item>
        </Col>
        <Col flex="88px">
          <Form.Item name={name} noStyle>
            <InputNumber min={min} max={max} step={step} disabled={disabled} style={{ width: 88 }} data-testid={testId} />
          </Form.Item>
        </Col>
      </Row>
    </Form.Item>
  );
}

/**
 * The orchestration screen's switch (doc 2 dictionary areas): single-agent, or multi-agent where the agent
 * hands turns to bound agents (self-scheduling) or follows one of its bound workflows (self-orchestration).
 */
function OrchestrationCard({ form, workflowIds }: { form: FormInstance<AgentDraft>; workflowIds: string[] }) {
  const { t } = useTranslation();
  const mode = Form.useWatch(["orchestration", "mode"], form);
  const multiMode = Form.useWatch(["orchestration", "multiMode"], form);
  const agents = useMinePage({ page: 1 });
  const workflows = useMyPlugins(2);
  const multi = mode === "multi";
  return (
    <Card title={t("agents.studio.orchestration")} style={{ marginBottom: 16 }} data-testid="studio-orchestration">
      <Form.Item name={["orchestration", "mode"]} extra={t(multi ? "agents.studio.multiAgentHint" : "agents.studio.singleAgentHint")}>
        <Radio.Group
          optionType="button"
          data-testid="studio-orchestration-mode"
          options={[
            { value: "single", label: t("agents.studio.singleAgent") },
            { value: "multi", label: t("agents.studio.multiAgent") },
          ]}
        />
      </Form.Item>
      <Form.Item name={["orchestration", "multiMode"]} hidden={!multi}>
        <Radio.Group
          data-testid="studio-multi-mode"
          options={[
            { value: "scheduling", label: t("agents.studio.selfScheduling") },
            { value: "workflow", label: t("agents.studio.selfOrchestration") },
          ]}
        />
      </Form.Item>
      <Form.Item
        name={["orchestration", "agents"]}
        label={t("agents.studio.scheduledAgents")}
        extra={t("agents.studio.selfSchedulingHint")}
        hidden={!multi || multiMode !== "scheduling"}
        rules={[
          {
            validator: (_r, v: string[] | undefined) =>
              form.getFieldValue(["orchestration", "mode"]) === "multi" &&
              form.getFieldValue(["orchestration", "multiMode"]) === "scheduling" &&
              !v?.length
                ? Promise.reject(new Error(t("agents.studio.scheduledAgentsRequired")))
                : Promise.resolve(),
          },
        ]}
      >
        <Select
          mode="multiple"
          maxCount={10}
          allowClear
          loading={agents.isLoading}
          data-testid="studio-scheduled-agents"
          options={(agents.data?.list ?? []).map((a) => ({ value: a.agentId || a.id, label: a.agentName }))}
        />
      </Form.Item>
      <Form.Item
        name={["orchestration", "workflowId"]}
        label={t("agents.studio.orchestrationWorkflow")}
        extra={t("agents.studio.selfOrchestrationHint")}
        hidden={!multi || multiMode !== "workflow"}
        rules={[
          {
            validator: (_r, v: string | null | undefined) =>
              form.getFieldValue(["orchestration", "mode"]) === "multi" &&
              form.getFieldValue(["orchestration", "multiMode"]) === "workflow" &&
              !v
                ? Promise.reject(new Error(t("agents.studio.orchestrationWorkflowRequired")))
                : Promise.resolve(),
          },
        ]}
      >
        <Select
          allowClear
          data-testid="studio-orchestration-workflow"
          notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("agents.studio.bindWorkflowFirst")} />}
          options={(workflows.data?.content ?? [])
            .filter((w) => workflowIds.includes(w.id))
            .map((w) => ({ value: w.id, label: w.pluginName }))}
        />
      </Form.Item>
    </Card>
  );
}

/** The studio's editable sections; the values are exactly an AgentDraft. */
export function StudioForm({ form, onChange }: { form: FormInstance<AgentDraft>; onChange: () => void }) {
  const { t } = useTranslation();
  const labels = useLabels();
  const models = useModelOptions();
  const persona = Form.useWatch("persona", form) ?? "";
  const mode = Form.useWatch(["model", "mode"], form);
  const icon = Form.useWatch("agentIcon", form) ?? "1";
  const chatInsight = Form.useWatch(["chatOption", "enableChatInsight"], form);
  const background = Form.useWatch("agentIconBackground", form) ?? "#e8f3ff";
  const bindings = Form.useWatch("bindings", { form, preserve: true }) as AgentDraft["bindings"] | undefined;
  const directAnswer = Form.useWatch(["knowledge", "directAnswer"], form);
  const rerank = Form.useWatch(["knowledge", "rerank"], form);
  const knowledgeBases = useMyKnowledgeBases();
  const rerankModels = useRerankModelOptions();
  const designs = useMyDesigns();
  const bytes = utf8Bytes(persona);

  return (
    <Form
      form={form}
      layout="vertical"
      onValuesChange={(changed: Partial<AgentDraft>) => {
        const nextMode = changed.model?.mode;
        if (nextMode && nextMode !== "custom")
          form.setFieldsValue({ model: { ...form.getFieldValue("model"), ...AGENT_MODE_PRESETS[nextMode] } });
        // A name's duplicate error depends on the other names: re-check the ones that show an error.
        if (changed.variables) {
          const stale = ((form.getFieldValue("variables") ?? []) as unknown[])
            .map((_, i) => ["variables", i, "name"] as ["variables", number, "name"])
            .filter((path) => form.getFieldError(path).length > 0);
          if (stale.length) setTimeout(() => validated(form, stale));
        }
        onChange();
      }}
      data-testid="studio-form"
    >
      <Form.Item name="agentIcon" hidden>
        <Input />
      </Form.Item>
      <Form.Item name="agentIconBackground" hidden>
        <Input />
      </Form.Item>
      <Card title={t("agents.studio.identity")} style={{ marginBottom: 16 }}>
        <div style={{ display: "flex", gap: 16 }}>
          <Form.Item label={t("agents.studio.icon")}>
            <IconPickerButton
              value={{ icon, background }}
              onChange={(v) => {
                form.setFieldsValue({ agentIcon: v.icon, agentIconBackground: v.background });
                onChange();
              }}
            />
          </Form.Item>
          <div style={{ flex: 1 }}>
            <Form.Item
              name="agentName"
              label={t("agents.studio.name")}
              rules={[
                {
                  validator: (_, v: string | undefined) => {
                    const err = renameError(v ?? "");
                    return err ? Promise.reject(new Error(t(`agents.rename.${err}`))) : Promise.resolve();
                  },
                },
              ]}
            >
              <Input showCount={{ formatter: ({ count }) => `${count} / ${AGENT_NAME_MAX}` }} data-testid="studio-name" />
            </Form.Item>
            <Form.Item name="agentDescription" label={t("agents.studio.description")}>
              <Input.TextArea rows={2} maxLength={500} showCount data-testid="studio-description" />
            </Form.Item>
          </div>
        </div>
      </Card>

      <Card title={t("agents.studio.persona")} style={{ marginBottom: 16 }}>
        <Form.Item
          name="persona"
          extra={
            <Typography.Text type={bytes > PERSONA_MAX_BYTES ? "danger" : "secondary"} data-testid="persona-bytes">
              {t("agents.studio.personaBytes", { bytes, max: PERSONA_MAX_BYTES })}
            </Typography.Text>
          }
          rules={[
            {
              validator: (_, v: string | undefined) =>
                utf8Bytes(v ?? "") > PERSONA_MAX_BYTES ? Promise.reject(new Error(t("agents.studio.personaTooLong"))) : Promise.resolve(),
            },
          ]}
        >
          <Input.TextArea rows={8} placeholder={t("agents.studio.personaPlaceholder")} data-testid="studio-persona" />
        </Form.Item>
      </Card>

      <Card title={t("agents.studio.model")} style={{ marginBottom: 16 }}>
        <Form.Item name={["model", "modelId"]} label={t("agents.studio.modelId")} extra={t("agents.studio.modelHint")}>
          <Select
            allowClear
            placeholder={t("agents.studio.modelIdPlaceholder")}
            options={(models.data ?? [])
              .filter((m) => m.type === "LLM")
              .map((m) => ({ value: m.id, label: m.isDefault ? `${m.name}（${t("agents.studio.defaultModel")}）` : m.name }))}
            data-testid="studio-model"
          />
        </Form.Item>
        <Form.Item name={["model", "mode"]} label={t("agents.studio.mode")}>
          <Radio.Group optionType="button" options={MODEL_MODES_LIST.map((m) => ({ value: m, label: t(`agents.studio.modes.${m}`) }))} />
        </Form.Item>
        <SliderField
          name={["model", "temperature"]}
          label={t("agents.studio.temperature")}
          min={0}
          max={2}
          step={0.1}
          disabled={mode !== "custom"}
        />
        <SliderField name={["model", "topP"]} label={t("agents.studio.topP")} min={0} max={1} step={0.05} disabled={mode !== "custom"} />
        <SliderField
          name={["model", "presencePenalty"]}
          label={t("agents.studio.presencePenalty")}
          min={-2}
          max={2}
          step={0.1}
          disabled={mode !== "custom"}
        />
        <SliderField
          name={["model", "frequencyPenalty"]}
          label={t("agents.studio.frequencyPenalty")}
          min={-2}
          max={2}
          step={0.1}
          disabled={mode !== "custom"}
        />
        <Form.Item name={["model", "maxTokens"]} label={t("agents.studio.maxTokens")}>
          <InputNumber min={1} max={MAX_TOKENS_LIMIT} step={256} style={{ width: 160 }} />
        </Form.Item>
      </Card>

      <Card title={t("agents.studio.chat")} style={{ marginBottom: 16 }}>
        <Form.Item name={["chatOption", "prologue"]} label={t("agents.studio.prologue")}>
          <Input.TextArea rows={3} maxLength={1000} showCount data-testid="studio-prologue" />
        </Form.Item>
        <Typography.Text>{t("agents.studio.presetQuestions")}</Typography.Text>
        <Form.List name={["chatOption", "presetQuestions"]}>
          {(fields, { add, remove }) => (
            <div style={{ marginTop: 8, marginBottom: 16 }}>
              {fields.map((f) => (
                <Space key={f.key} style={{ display: "flex", marginBottom: 8 }} align="baseline">
                  <Form.Item
                    name={f.name}
                    rules={[{ required: true, whitespace: true, message: t("common.pleaseEnter") }]}
                    style={{ marginBottom: 0, width: 480 }}
                  >
                    <Input maxLength={100} placeholder={t("agents.studio.questionPlaceholder")} />
                  </Form.Item>
                  <Button type="text" icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t("common.remove")} />
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add("")} disabled={fields.length >= PRESET_QUESTIONS_MAX}>
                {t("agents.studio.addQuestion")}
              </Button>
            </div>
          )}
        </Form.List>
        <Form.Item name="usageGuide" label={t("agents.studio.usageGuide")}>
          <Input.TextArea rows={3} maxLength={2000} showCount />
        </Form.Item>
        <Form.Item name="example" label={t("agents.studio.example")}>
          <Input.TextArea rows={2} maxLength={2000} />
        </Form.Item>
      </Card>

      <Card title={t("agents.studio.variables")} style={{ marginBottom: 16 }}>
        <Form.List name="variables">
          {(fields, { add, remove }) => (
            <div>
              {fields.map((f) => (
                <Row key={f.key} gutter={8} align="top">
                  <Col span={6}>
                    <Form.Item
                      name={[f.name, "name"]}
                      rules={[
                        { required: true, message: t("common.pleaseEnter") },
                        { pattern: VARIABLE_NAME_PATTERN, message: t("agents.studio.variableInvalid") },
                        {
                          validator: (_, v: string | undefined) => {
                            const names = ((form.getFieldValue("variables") ?? []) as { name?: string }[]).map((x) => x?.name?.trim());
                            return v && names.filter((n) => n === v.trim()).length > 1
                              ? Promise.reject(new Error(t("agents.studio.variableDuplicate")))
                              : Promise.resolve();
                          },
                        },
                      ]}
                    >
                      <Input placeholder={t("agents.studio.variableName")} data-testid="variable-name" />
                    </Form.Item>
                  </Col>
                  <Col span={6}>
                    <Form.Item name={[f.name, "default"]}>
                      <Input placeholder={t("agents.studio.variableDefault")} maxLength={500} />
                    </Form.Item>
                  </Col>
                  <Col span={6}>
                    <Form.Item name={[f.name, "description"]}>
                      <Input placeholder={t("agents.studio.variableDescription")} maxLength={200} />
                    </Form.Item>
                  </Col>
                  <Col span={4}>
                    {/* Where each user's value is kept: across their chats, or for one chat. */}
                    <Form.Item name={[f.name, "scope"]} initialValue="user">
                      <Select
                        aria-label={t("agents.studio.variableScope")}
                        data-testid="variable-scope"
                        options={[
                          { value: "user", label: t("agents.studio.variableScopeUser") },
                          { value: "session", label: t("agents.studio.variableScopeSession") },
                        ]}
                      />
                    </Form.Item>
                  </Col>
                  <Col span={2}>
                    <Button type="text" icon={<DeleteOutlined />} onClick={() => remove(f.name)} aria-label={t("common.remove")} />
                  </Col>
                </Row>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ name: "", default: "", description: "", scope: "user" })}
                disabled={fields.length >= VARIABLES_MAX}
                data-testid="add-variable"
              >
                {t("agents.studio.addVariable")}
              </Button>
            </div>
          )}
        </Form.List>
      </Card>

      <Card title={t("agents.studio.knowledge")} style={{ marginBottom: 16 }} data-testid="studio-knowledge">
        <Form.Item name={["bindings", "knowledgeBases"]} label={t("agents.studio.knowledgeBases")}>
          <Select
            mode="multiple"
            allowClear
            loading={knowledgeBases.isLoading}
            placeholder={t("agents.studio.knowledgePlaceholder")}
            notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("agents.studio.noKnowledge")} />}
            showSearch={{ optionFilterProp: "label" }}
            options={(knowledgeBases.data?.list ?? []).map((k) => ({ value: k.id, label: k.name }))}
            data-testid="studio-knowledge-bases"
          />
        </Form.Item>
        <Form.Item name={["knowledge", "topK"]} label={t("agents.studio.topK")}>
          <InputNumber min={1} max={20} precision={0} style={{ width: 160 }} data-testid="studio-topk" />
        </Form.Item>
        <SliderField
          name={["knowledge", "vectorWeight"]}
          label={t("agents.studio.vectorWeight")}
          testId="studio-vector-weight"
          min={0}
          max={1}
          step={0.05}
          disabled={false}
        />
        <SliderField name={["knowledge", "threshold"]} label={t("agents.studio.threshold")} min={0} max={1} step={0.05} disabled={false} />
        <Form.Item
          name={["knowledge", "rerank"]}
          label={t("agents.studio.rerank")}
          extra={t("agents.studio.rerankHint")}
          valuePropName="checked"
        >
          <Switch data-testid="studio-rerank" />
        </Form.Item>
        <Form.Item
          name={["knowledge", "rerankModelId"]}
          label={t("agents.studio.rerankModel")}
          // null (the default rerank model) shows the placeholder
          getValueProps={(v) => ({ value: v ?? undefined })}
          normalize={(v) => v ?? null}
        >
          <Select
            allowClear
            disabled={!rerank}
            loading={rerankModels.isLoading}
            placeholder={t("agents.studio.rerankModelDefault")}
            notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("agents.studio.noRerankModel")} />}
            showSearch={{ optionFilterProp: "label" }}
            options={(rerankModels.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
            style={{ maxWidth: 320 }}
            data-testid="studio-rerank-model"
          />
        </Form.Item>
        <Form.Item
          name={["knowledge", "directAnswer"]}
          label={t("agents.studio.directAnswer")}
          extra={t("agents.studio.directAnswerHint")}
          valuePropName="checked"
        >
          <Switch data-testid="studio-direct-answer" />
        </Form.Item>
        <SliderField
          name={["knowledge", "directThreshold"]}
          label={t("agents.studio.directThreshold")}
          testId="studio-direct-threshold"
          min={0}
          max={1}
          step={0.05}
          disabled={!directAnswer}
        />
      </Card>

      <Card title={t("agents.studio.tools")} style={{ marginBottom: 16 }} data-testid="studio-tools">
        <Form.Item name={["bindings", "plugins"]} label={t("agents.studio.plugins")} extra={t("agents.studio.toolsReleaseNote")}>
          <ToolPicker kind={1} placeholder={t("agents.studio.pluginsPlaceholder")} testId="studio-plugins" />
        </Form.Item>
        <Form.Item name={["bindings", "externalPlugins"]} label={t("agents.studio.mcpTools")}>
          <ToolPicker kind={3} placeholder={t("agents.studio.mcpPlaceholder")} testId="studio-mcp-tools" />
        </Form.Item>
        <Form.Item name={["bindings", "workflows"]} label={t("agents.studio.workflows")} extra={t("agents.studio.workflowsReleaseNote")}>
          <ToolPicker kind={2} placeholder={t("agents.studio.workflowsPlaceholder")} testId="studio-workflows" />
        </Form.Item>
      </Card>

      <OrchestrationCard form={form} workflowIds={bindings?.workflows ?? []} />

      <Card title={t("agents.studio.rules")} style={{ marginBottom: 16 }} data-testid="studio-rules-card">
        <Form.Item name={["bindings", "rules"]} label={t("agents.studio.rulesBind")} extra={t("agents.studio.rulesHint")}>
          <RulePicker />
        </Form.Item>
        <Form.Item name={["chatOption", "enableFastConfigRuleOnChat"]} label={t("agents.studio.fastConfigRule")} valuePropName="checked">
          <Switch data-testid="studio-fast-config-rule" />
        </Form.Item>
      </Card>

      <Card title={t("agents.studio.chatInsight")} style={{ marginBottom: 16 }} data-testid="studio-chat-insight-card">
        <Form.Item
          name={["chatOption", "enableChatInsight"]}
          label={t("agents.studio.chatInsightEnable")}
          extra={t("agents.studio.chatInsightHint")}
          valuePropName="checked"
        >
          <Switch data-testid="studio-chat-insight" />
        </Form.Item>
        {chatInsight && (
          <Form.Item
            name={["chatOption", "chatInsightFeatures"]}
            label={t("agents.studio.chatInsightFeatures")}
            extra={t("agents.studio.chatInsightFeaturesHint")}
          >
            <Checkbox.Group
              options={CHAT_INSIGHT_FEATURES.map((f) => ({ value: f, label: t(`insight.chat.features.${f}`) }))}
              data-testid="studio-chat-insight-features"
            />
          </Form.Item>
        )}
      </Card>

      <Card title={t("agents.studio.design")} style={{ marginBottom: 16 }} data-testid="studio-design-card">
        <Form.Item name="designId" label={t("agents.studio.designBind")} extra={t("agents.studio.designHint")}>
          <Select
            allowClear
            loading={designs.isLoading}
            placeholder={t("agents.studio.designPlaceholder")}
            notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("agents.studio.noDesigns")} />}
            showSearch={{ optionFilterProp: "label" }}
            options={(designs.data?.list ?? []).map((d) => ({ value: d.id, label: d.name }))}
            data-testid="studio-design"
          />
        </Form.Item>
      </Card>

      <Card title={t("agents.studio.listing")} style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col span={14}>
            <Form.Item name="launchTags" label={t("agents.studio.launchTags")}>
              <Select
                mode="multiple"
                allowClear
                options={DEFAULT_TAGS.map((k) => ({ value: k, label: t(`agents.tags.${k}`) }))}
                data-testid="studio-tags"
              />
            </Form.Item>
          </Col>
          <Col span={10}>
            <Form.Item name="labelId" label={t("agents.studio.label")}>
              <Select allowClear options={(labels.data ?? []).map((l) => ({ value: l.id, label: l.labelName }))} />
            </Form.Item>
          </Col>
        </Row>
      </Card>
    </Form>
  );
}
