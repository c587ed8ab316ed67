import { HistoryOutlined, PlusOutlined, RocketOutlined, SaveOutlined } from "@ant-design/icons";
import { type AgentDraft, type DraftResponse, isUnreleased } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Col, Empty, Form, Input, Modal, Row, Space, Spin, Tag, Tooltip, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useBlocker, useNavigate, useSearchParams } from "react-router";
import { ChatPanel } from "../../../components/chat/chat-panel";
import { draftKey, useDraft } from "../api/draft";
import { quickAdd } from "../api/quick-add";
import { releaseAgent } from "../api/release";
import { saveDraft } from "../api/save-draft";
import { StudioForm } from "../components/studio-form";
import { VersionsDrawer } from "../components/versions-drawer";
import { setStudioAgentId, studioAgentId } from "../studio-session";

/** Fills what an older draft may lack, so the form always holds a whole AgentDraft. */
function normalise(values: AgentDraft): AgentDraft {
  return {
    ...values,
    agentDescription: values.agentDescription ?? "",
    persona: values.persona ?? "",
    usageGuide: values.usageGuide ?? "",
    example: values.example ?? "",
    labelId: values.labelId ?? null,
    launchTags: values.launchTags ?? [],
    model: { ...values.model, modelId: values.model.modelId?.trim() ? values.model.modelId.trim() : null },
    chatOption: {
      ...values.chatOption,
      prologue: values.chatOption.prologue ?? "",
      presetQuestions: (values.chatOption.presetQuestions ?? []).map((q) => q?.trim()).filter(Boolean),
    },
    variables: (values.variables ?? []).map((v) => ({ name: v.name.trim(), default: v.default ?? "", description: v.description ?? "" })),
  };
}

/** /studio: the agent editor. The agent id is kept in session storage (doc 1 §2). */
export function StudioPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [agentId, setAgentId] = useState<string | null>(() => params.get("id") ?? studioAgentId());
  const draft = useDraft(agentId);
  const [form] = Form.useForm<AgentDraft>();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [releaseOpen, setReleaseOpen] = useState(false);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [notes, setNotes] = useState("");
  const [debugSession, setDebugSession] = useState<string | null>(null);
  const name = Form.useWatch("agentName", form);

  useEffect(() => {
    const fromUrl = params.get("id");
    if (fromUrl) {
      setStudioAgentId(fromUrl);
      setAgentId(fromUrl);
      setParams({}, { replace: true });
    }
  }, [params]);

  // Leaving the studio with unsaved changes asks first.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    modal.confirm({
      title: t("agents.studio.leaveUnsaved"),
      okText: t("common.confirm"),
      cancelText: t("common.cancel"),
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker.state]);

  const loaded = draft.data?.agentId;
  useEffect(() => {
    if (draft.data) {
      form.setFieldsValue(draft.data.draft);
      setDirty(false);
    }
  }, [loaded]);

  const applyResponse = (res: DraftResponse) => {
    queryClient.setQueryData(draftKey(res.agentId), res);
    queryClient.invalidateQueries({ queryKey: ["agents", "mine"] });
  };

  const save = async () => {
    if (!agentId) return false;
    await form.validateFields();
    // All values, also the ones no field shows (insight switches, bindings): the draft is sent whole.
    const values = normalise(form.getFieldsValue(true) as AgentDraft);
    setSaving(true);
    try {
      const res = await saveDraft(agentId, values);
      applyResponse(res);
      form.setFieldsValue(res.draft);
      setDirty(false);
      message.success(t("agents.studio.saved"));
      return true;
    } catch {
      return false;
    } finally {
      setSaving(false);
    }
  };

  const openRelease = () => {
    if (dirty) return message.warning(t("agents.studio.saveFirst"));
    if (!draft.data?.debugSucceeded) return message.warning(t("agents.studio.debugFirst"));
    setNotes("");
    setReleaseOpen(true);
  };
  const release = async () => {
    if (!agentId) return;
    const { versionNo } = await releaseAgent(agentId, notes.trim());
    message.success(t("agents.studio.released", { version: versionNo }));
    setReleaseOpen(false);
    await queryClient.invalidateQueries({ queryKey: ["agents"] });
  };

  const create = async () => {
    const { agentId: id } = await quickAdd({ agentName: t("agents.studio.defaultName") });
    setStudioAgentId(id);
    setAgentId(id);
  };

  if (!agentId || draft.isError)
    return (
      <Card style={{ maxWidth: 720, margin: "48px auto" }}>
        <Empty description={t("agents.studio.noAgent")}>
          <Space>
            <Button type="primary" icon={<PlusOutlined />} onClick={create} data-testid="studio-create">
              {t("agents.studio.createFirst")}
            </Button>
            <Button onClick={() => navigate("/home")}>{t("agents.home.myAgents")}</Button>
          </Space>
        </Empty>
      </Card>
    );
  if (!draft.data) return <Spin style={{ display: "block", padding: 64 }} />;
  const d = draft.data;
  const released = !isUnreleased(d.agentStatus);

  return (
    <div style={{ maxWidth: 1440, margin: "0 auto" }}>
      <Card styles={{ body: { padding: "12px 20px" } }} style={{ marginBottom: 16 }}>
        <div style={{ display: "flex", alignItems: "center", gap: 12, flexWrap: "wrap" }}>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="studio-title">
            {name || d.draft.agentName}
          </Typography.Title>
          {released ? (
            <Tag color="green">
              {t("agents.studio.status.released")} v{d.latestVersion}
            </Tag>
          ) : (
            <Tag color="gold">{t("agents.studio.status.unreleased")}</Tag>
          )}
          {dirty && <Tag color="orange">{t("agents.studio.unsaved")}</Tag>}
          <div style={{ flex: 1 }} />
          <Button icon={<HistoryOutlined />} onClick={() => setVersionsOpen(true)} data-testid="studio-versions">
            {t("agents.studio.versions")}
          </Button>
          <Button icon={<SaveOutlined />} onClick={save} loading={saving} data-testid="studio-save">
            {t("agents.studio.save")}
          </Button>
          <Tooltip title={d.debugSucceeded && !dirty ? undefined : dirty ? t("agents.studio.saveFirst") : t("agents.studio.debugFirst")}>
            <Button type="primary" icon={<RocketOutlined />} onClick={openRelease} data-testid="studio-release">
              {t("agents.studio.release")}
            </Button>
          </Tooltip>
        </div>
      </Card>
      <Row gutter={16}>
        <Col xs={24} lg={14}>
          <StudioForm form={form} onChange={() => setDirty(true)} />
        </Col>
        <Col xs={24} lg={10}>
          {/* Debug pane: the reusable chat view runs the saved draft (release: false); a reply that ends
              done marks this revision debugged on the server, so the draft is refetched to unlock release. */}
          <Card title={t("agents.studio.debug")} style={{ position: "sticky", top: 16 }} data-testid="studio-debug-pane">
            <div
              style={{
                height: 480,
                display: "flex",
                flexDirection: "column",
                border: "1px solid #f0f0f0",
                borderRadius: 8,
                marginBottom: 12,
              }}
            >
              <ChatPanel
                key={agentId}
                agentId={agentId}
                release={false}
                agent={{ ...d.draft, prologue: d.draft.chatOption.prologue, presetQuestions: d.draft.chatOption.presetQuestions }}
                sessionId={debugSession}
                onSession={(sid) => setDebugSession(sid)}
                onFinish={(status) => status === "done" && void queryClient.invalidateQueries({ queryKey: draftKey(agentId) })}
              />
            </div>
            <Space direction="vertical">
              {d.debugSucceeded ? (
                <Alert type="success" showIcon title={t("agents.studio.debugOk")} />
              ) : (
                <Alert type="warning" showIcon title={t("agents.studio.debugNeeded")} data-testid="studio-debug-needed" />
              )}
              <Typography.Text type="secondary">{t("agents.studio.revision", { revision: d.revision })}</Typography.Text>
            </Space>
          </Card>
        </Col>
      </Row>
      <Modal
        open={releaseOpen}
        title={t("agents.studio.releaseTitle")}
        onCancel={() => setReleaseOpen(false)}
        onOk={release}
        okText={t("agents.studio.release")}
        cancelText={t("common.cancel")}
      >
        <Typography.Text>{t("agents.studio.versionNotes")}</Typography.Text>
        <Input.TextArea
          rows={3}
          maxLength={500}
          showCount
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          placeholder={t("agents.studio.versionNotesPlaceholder")}
          style={{ marginTop: 8 }}
          data-testid="release-notes"
        />
      </Modal>
      <VersionsDrawer agentId={agentId} open={versionsOpen} onClose={() => setVersionsOpen(false)} />
    </div>
  );
}
