import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import {
  ADVANCED_CARD_TYPES,
  BASIC_CARD_TYPES,
  CARD_FIELDS,
  type CardTemplate,
  type CardTemplateConfig,
  type CardType,
  valueAt,
} from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Empty,
  Form,
  Input,
  List,
  Popconfirm,
  Radio,
  Row,
  Segmented,
  Select,
  Space,
  Tag,
  Typography,
} from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { createBus, type ChatBusEvents } from "../../../components/chat/event-bus";
import { PageTitle } from "../../../components/page-title";
import { cardsKey, useCards } from "../api/cards";
import { deleteCard } from "../api/delete-card";
import { saveCard } from "../api/save-card";
import { CardTemplateView, type CardMode } from "../components/card-template";
import { sampleFor } from "../lib/samples";

interface Draft {
  id: string | null;
  name: string;
  group: string;
  type?: CardType;
  list: boolean;
  dataPath: string;
  options: Record<string, string>;
  buttons: string[];
  sampleText: string;
}

const emptyDraft = (): Draft => ({ id: null, name: "", group: "", list: false, dataPath: "", options: {}, buttons: [], sampleText: "" });

const draftOf = (c: CardTemplate): Draft => ({
  id: c.id,
  name: c.name,
  group: c.group,
  type: c.config.type,
  list: c.config.list,
  dataPath: c.config.dataPath,
  options: c.config.options,
  buttons: c.config.buttons.map((b) => b.label),
  sampleText: c.sample === undefined ? "" : JSON.stringify(c.sample, null, 2),
});

const parseSample = (text: string): { ok: true; value: unknown } | { ok: false } => {
  if (!text.trim()) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

/**
 * The card editor at /cards (dictionary areas: templates, components, layout, basic and advanced
 * components): a template is a type, a list flag, a data path and a field → value path mapping,
 * previewed live with a sample result.
 */
export function CardsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const cards = useCards();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [busy, setBusy] = useState(false);
  const [mode, setMode] = useState<CardMode>("designer");
  const previewBus = useMemo(() => createBus<ChatBusEvents>(), []);
  const selectedId = params.get("id");

  // The template the draft was loaded from: the draft follows the selected id, not every refetch of
  // the list, which would throw away what is being edited.
  const loadedId = useRef<string | null>(null);
  useEffect(() => {
    if (selectedId === loadedId.current) return;
    if (!selectedId) {
      loadedId.current = null;
      setDraft(emptyDraft());
      return;
    }
    if (!cards.data) return;
    const found = cards.data.find((c) => c.id === selectedId);
    loadedId.current = selectedId;
    setDraft(found ? draftOf(found) : emptyDraft());
  }, [selectedId, cards.data]);

  // The URL changes in a transition; a click can land before it renders, so the draft empties now.
  const startNew = () => {
    loadedId.current = null;
    setDraft(emptyDraft());
    setParams({});
  };

  const edit = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const sample = parseSample(draft.sampleText);
  const config: CardTemplateConfig | null = draft.type
    ? {
        type: draft.type,
        list: draft.list,
        dataPath: draft.dataPath,
        options: draft.options,
        buttons: draft.buttons.map((label) => ({ label })),
      }
    : null;
  const previewData = sample.ok ? valueAt(sample.value, draft.dataPath) : undefined;
  const listProblem = !!config && draft.list && sample.ok && sample.value !== undefined && !Array.isArray(previewData);

  // From the draft as it is now, not as this render saw it: a click can land between "new" emptying
  // the draft and the next render.
  const place = (type: CardType) =>
    setDraft((d) => {
      const start = sampleFor(type);
      return {
        ...d,
        type,
        options: {},
        ...(d.sampleText.trim()
          ? {}
          : { list: !!start.config.list, dataPath: start.config.dataPath ?? "", sampleText: JSON.stringify(start.sample, null, 2) }),
      };
    });

  const save = async () => {
    if (!draft.name.trim()) return message.error(t("cards.editor.nameRequired"));
    if (!config) return message.error(t("cards.editor.needsComponent"));
    if (!sample.ok) return message.error(t("cards.editor.sampleInvalid"));
    if (listProblem) return message.error(t("cards.editor.listNeedsList"));
    setBusy(true);
    try {
      const saved = await saveCard(draft.id, { name: draft.name, group: draft.group, config, sample: sample.value });
      await queryClient.invalidateQueries({ queryKey: cardsKey });
      message.success(t(draft.id ? "cards.editor.saved" : "cards.editor.created"));
      setParams({ id: saved.id });
    } catch {
      // the http client has shown the server's message
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!draft.id) return;
    await deleteCard(draft.id);
    await queryClient.invalidateQueries({ queryKey: cardsKey });
    message.success(t("cards.editor.deleted"));
    setParams({});
  };

  const palette = (types: CardType[]) =>
    types.map((type) => (
      <Button key={type} block onClick={() => place(type)} data-card-type={type} type={draft.type === type ? "primary" : "default"}>
        {t(`cards.types.${type}`)}
      </Button>
    ));

  return (
    <div style={{ maxWidth: 1400, margin: "0 auto" }} data-testid="cards-page">
      <PageTitle title={t("cards.editor.title")} subtitle={t("cards.editor.subtitle")} />
      <Row gutter={16}>
        <Col xs={24} md={6} lg={5}>
          <Card
            size="small"
            title={t("cards.editor.templates")}
            extra={
              <Button size="small" type="link" icon={<PlusOutlined />} onClick={startNew} data-testid="card-new">
                {t("cards.editor.newCard")}
              </Button>
            }
          >
            <List
              size="small"
              loading={cards.isLoading}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("cards.editor.empty")} /> }}
              dataSource={cards.data ?? []}
              renderItem={(c) => (
                <List.Item
                  onClick={() => setParams({ id: c.id })}
                  style={{ cursor: "pointer", background: c.id === selectedId ? "#e6f4ff" : undefined, paddingInline: 8 }}
                  data-testid="card-template-item"
                >
                  <div style={{ minWidth: 0 }}>
                    <Typography.Text strong ellipsis>
                      {c.name}
                    </Typography.Text>
                    <div>
                      <Tag>{t(`cards.types.${c.config.type}`)}</Tag>
                      {c.pluginIds.length > 0 && (
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {t("cards.editor.boundTo", { count: c.pluginIds.length })}
                        </Typography.Text>
                      )}
                    </div>
                  </div>
                </List.Item>
              )}
            />
          </Card>
          <Card size="small" title={t("cards.editor.components")} style={{ marginTop: 16 }}>
            <Typography.Text type="secondary">{t("cards.editor.basic")}</Typography.Text>
            <Space direction="vertical" style={{ width: "100%", margin: "8px 0 12px" }}>
              {palette(BASIC_CARD_TYPES)}
            </Space>
            <Typography.Text type="secondary">{t("cards.editor.advanced")}</Typography.Text>
            <Space direction="vertical" style={{ width: "100%", marginTop: 8 }}>
              {palette(ADVANCED_CARD_TYPES)}
            </Space>
          </Card>
        </Col>
        <Col xs={24} md={10} lg={11}>
          <Card
            size="small"
            title={t("cards.editor.layout")}
            extra={
              <Space>
                {draft.id && (
                  <Popconfirm title={t("cards.editor.confirmDelete")} onConfirm={remove}>
                    <Button danger icon={<DeleteOutlined />} data-testid="card-delete">
                      {t("cards.editor.delete")}
                    </Button>
                  </Popconfirm>
                )}
                <Button type="primary" onClick={save} loading={busy} data-testid="card-save">
                  {t("cards.editor.save")}
                </Button>
              </Space>
            }
          >
            <Form layout="vertical">
              <Row gutter={12}>
                <Col span={14}>
                  <Form.Item label={t("cards.editor.name")} required>
                    <Input
                      value={draft.name}
                      maxLength={50}
                      placeholder={t("cards.editor.namePlaceholder")}
                      onChange={(e) => edit({ name: e.target.value })}
                      data-testid="card-name"
                    />
                  </Form.Item>
                </Col>
                <Col span={10}>
                  <Form.Item label={t("cards.editor.group")}>
                    <Input value={draft.group} maxLength={50} onChange={(e) => edit({ group: e.target.value })} />
                  </Form.Item>
                </Col>
              </Row>
              {!draft.type ? (
                <Alert type="info" showIcon message={t("cards.editor.needsComponent")} description={t("cards.editor.pickComponent")} />
              ) : (
                <>
                  <Form.Item label={t("cards.editor.components")}>
                    <Tag color="blue" closable onClose={() => edit({ type: undefined })} data-testid="card-layout-component">
                      {t(`cards.types.${draft.type}`)}
                    </Tag>
                  </Form.Item>
                  <Form.Item label={t("cards.editor.mode")}>
                    <Radio.Group value={draft.list} onChange={(e) => edit({ list: e.target.value })}>
                      <Radio value={false}>{t("cards.editor.single")}</Radio>
                      <Radio value={true} data-testid="card-list">
                        {t("cards.editor.multi")}
                      </Radio>
                    </Radio.Group>
                  </Form.Item>
                  <Form.Item
                    label={`${t("cards.editor.dataSource")} · ${t("cards.editor.dataPath")}`}
                    extra={t("cards.editor.dataPathHint")}
                  >
                    <Input value={draft.dataPath} onChange={(e) => edit({ dataPath: e.target.value })} data-testid="card-data-path" />
                  </Form.Item>
                  <Form.Item label={t("cards.editor.mapping")} extra={t("cards.editor.mappingHint")}>
                    {CARD_FIELDS[draft.type].map((field) => (
                      <Space.Compact key={field} style={{ width: "100%", marginBottom: 6 }}>
                        <Input readOnly value={t(`cards.fields.${field}`)} style={{ width: "42%" }} tabIndex={-1} />
                        <Input
                          placeholder={field}
                          value={draft.options[field] ?? ""}
                          onChange={(e) => edit({ options: { ...draft.options, [field]: e.target.value } })}
                          data-testid={`card-field-${field}`}
                        />
                      </Space.Compact>
                    ))}
                  </Form.Item>
                  <Form.Item label={t("cards.editor.buttons")}>
                    <Select
                      mode="tags"
                      value={draft.buttons}
                      maxCount={10}
                      placeholder={t("cards.editor.buttonsPlaceholder")}
                      onChange={(buttons: string[]) => edit({ buttons })}
                      open={false}
                    />
                  </Form.Item>
                </>
              )}
              <Form.Item label={t("cards.editor.sample")} extra={t("cards.editor.sampleHint")}>
                <Input.TextArea
                  value={draft.sampleText}
                  onChange={(e) => edit({ sampleText: e.target.value })}
                  autoSize={{ minRows: 6, maxRows: 18 }}
                  spellCheck={false}
                  style={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", fontSize: 12 }}
                  status={sample.ok ? undefined : "error"}
                  data-testid="card-sample"
                />
              </Form.Item>
            </Form>
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card
            size="small"
            title={t("cards.editor.preview")}
            extra={
              <Segmented
                size="small"
                value={mode}
                onChange={(v) => setMode(v as CardMode)}
                options={[
                  { value: "designer", label: t("cards.editor.modeDesigner") },
                  { value: "render", label: t("cards.editor.modeRender") },
                ]}
              />
            }
          >
            <div data-testid="card-preview" style={{ overflowX: "auto" }}>
              {!sample.ok && <Alert type="error" showIcon message={t("cards.editor.sampleInvalid")} style={{ marginBottom: 8 }} />}
              {listProblem && <Alert type="warning" showIcon message={t("cards.editor.listNeedsList")} style={{ marginBottom: 8 }} />}
              {config ? (
                <CardTemplateView config={config} data={previewData} mode={mode} bus={previewBus} />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("cards.editor.needsComponent")} />
              )}
            </div>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
