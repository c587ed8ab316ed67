import { HistoryOutlined, MessageOutlined, PlusOutlined, RocketOutlined, SaveOutlined } from "@ant-design/icons";
import {
  type AgentDraft,
  type AgentKnowledgeSettings,
  type DraftResponse,
  defaultAgentDraft,
  defaultKnowledgeSettings,
  defaultOrchestration,
  isUnreleased,
} from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Col, Empty, Form, Input, Modal, Row, Space, Spin, Tag, Tooltip, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useBlocker, useNavigate, useSearchParams } from "react-router";
import { useStoredSession } from "../../../components/chat/api/session";
import { ChatPanel } from "../../../components/chat/chat-panel";
import { MemoryButton } from "../../../components/chat/memory-button";
import { draftKey, useDraft } from "../api/draft";
import { quickAdd } from "../api/quick-add";
import { releaseAgent } from "../api/release";
import { saveDraft } from "../api/save-draft";
import { StudioForm } from "../components/studio-form";
import { ConversationsDrawer } from "../components/conversations-drawer";
import { VersionsDrawer } from "../components/versions-drawer";
import {
  clearStudioAgentId,
  NEW_AGENT_PATH,
  setStudioAgentId,
  setStudioDebugSession,
  studioAgentId,
  studioDebugSession,
} from "../studio-session";
import { validated } from "../../../lib/form";

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
    knowledge: knowledgeOf(values.knowledge),
    variables: (values.variables ?? []).map((v) => ({
      name: v.name.trim(),
      default: v.default ?? "",
      description: v.description ?? "",
      scope: v.scope ?? "user",
    })),
    orchestration: { ...defaultOrchestration(), ...values.orchestration },
    designId: values.designId ?? null,
  };
}

/** Retrieval settings whose cleared number fields fall back to the defaults. */
function knowledgeOf(k: Partial<AgentKnowledgeSettings> | undefined): AgentKnowledgeSettings {
  const defaults = defaultKnowledgeSettings();
  return Object.fromEntries(
    Object.entries(defaults).map(([key, v]) => [key, k?.[key as keyof AgentKnowledgeSettings] ?? v]),
  ) as AgentKnowledgeSettings;
}

/** A draft as the form shows it: retrieval settings an older draft lacks are the defaults. */
const formValues = (draft: AgentDraft): AgentDraft => ({
  ...draft,
  knowledge: draft.knowledge ?? defaultKnowledgeSettings(),
  orchestration: draft.orchestration ?? defaultOrchestration(),
  // The picker shows its placeholder for undefined (not null); another agent's choice is cleared.
  designId: draft.designId ?? undefined,
});

/**
 * /studio: the agent editor. The agent id is kept in session storage (doc 1 §2). A new agent
 * (/studio?new=1) is a blank draft in the editor until its first save creates it, so an abandoned
 * 创建智能体 leaves nothing behind.
 */
export function StudioPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const isNew = params.get("new") === "1";
  const [agentId, setAgentId] = useState<string | null>(() => (isNew ? null : (params.get("id") ?? studioAgentId())));
  const draft = useDraft(agentId);
  const [form] = Form.useForm<AgentDraft>();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [releaseOpen, setReleaseOpen] = useState(false);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [conversationsOpen, setConversationsOpen] = useState(false);
  const [notes, setNotes] = useState("");
  // The debug conversation of the agent on screen (kept per agent for the tab: a reload follows it on).
  const [debugFor, setDebugFor] = useState<string | null>(null);
  const [debugSession, setDebugSession] = useState<string | null>(null);
  if (debugFor !== agentId) {
    setDebugFor(agentId);
    setDebugSession(agentId ? studioDebugSession(agentId) : null);
  }
  // A conversation whose first reply is still creating it: its row is written a moment later, so it is
  // fetched once that reply ends (until then the pane shows its own copy).
  const [creatingDebug, setCreatingDebug] = useState<string | null>(null);
  const debug = useStoredSession(debugSession !== creatingDebug ? debugSession : null);
  const newDebug = () => {
    if (agentId) setStudioDebugSession(agentId, null);
    setDebugSession(null);
  };
  // A kept conversation that is gone (deleted since): the pane starts a new one.
  const debugLost = debug.session.isError;
  useEffect(() => {
    if (debugLost) newDebug();
  }, [debugLost]);
  const name = Form.useWatch("agentName", form);

  useEffect(() => {
    const fromUrl = params.get("id");
    if (fromUrl) {
      setStudioAgentId(fromUrl);
      setAgentId(fromUrl);
      setParams({}, { replace: true });
    } else if (isNew) {
      clearStudioAgentId();
      setAgentId(null);
      form.setFieldsValue(formValues(defaultAgentDraft(t("agents.studio.defaultName"))));
      setDirty(false);
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
    // Unsaved edits stay (a first save whose draft call failed keeps what the user typed).
    if (draft.data && !dirty) {
      form.setFieldsValue(formValues(draft.data.draft));
      setDirty(false);
    }
  }, [loaded]);

  const applyResponse = (res: DraftResponse) => {
    queryClient.setQueryData(draftKey(res.agentId), res);
    queryClient.invalidateQueries({ queryKey: ["agents", "mine"] });
  };

  const save = async () => {
    if (!(await validated(form))) return false;
    // All values, also the ones no field shows (insight switches, bindings): the draft is sent whole.
    const values = normalise(form.getFieldsValue(true) as AgentDraft);
    setSaving(true);
    let id = agentId;
    try {
      if (!id) {
        const { agentName, agentDescription, agentIcon, agentIconBackground } = values;
        id = (await quickAdd({ agentName, agentDescription, agentIcon, agentIconBackground })).agentId;
        setStudioAgentId(id);
      }
      const res = await saveDraft(id, values);
      applyResponse(res);
      form.setFieldsValue(formValues(res.draft));
      setDirty(false);
      message.success(t("agents.studio.saved"));
      return true;
    } catch {
      return false;
    } finally {
      setSaving(false);
      if (id !== agentId) {
        setAgentId(id);
        setParams({}, { replace: true });
        queryClient.invalidateQueries({ queryKey: ["agents", "mine"] });
      }
    }
  };

  const openRelease = () => {
    if (dirty || !agentId) return message.warning(t("agents.studio.saveFirst"));
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

  if ((!agentId && !isNew) || draft.isError)
    return (
      <Card style={{ maxWidth: 720, margin: "48px auto" }}>
        <Empty description={t("agents.studio.noAgent")}>
          <Space>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(NEW_AGENT_PATH)} data-testid="studio-create">
              {t("agents.studio.createFirst")}
            </Button>
            <Button onClick={() => navigate("/home")}>{t("agents.home.myAgents")}</Button>
          </Space>
        </Empty>
      </Card>
    );
  if (agentId && !draft.data) return <Spin style={{ display: "block", padding: 64 }} />;
  const d = draft.data;
  const released = !!d && !isUnreleased(d.agentStatus);
  // What the debug pane runs is the saved draft: unsaved edits must be saved first.
  const unsaved = dirty || !d;
  const saveToDebug = (
    <Space direction="vertical" align="center" style={{ width: "100%", padding: 12 }} data-testid="studio-save-to-debug">
      <Typography.Text type="secondary">{t("agents.studio.saveToDebug")}</Typography.Text>
      <Button icon={<SaveOutlined />} onClick={save} loading={saving}>
        {t("agents.studio.save")}
      </Button>
    </Space>
  );

  return (
    <div style={{ maxWidth: 1440, margin: "0 auto" }}>
      <Card styles={{ body: { padding: "12px 20px" } }} style={{ marginBottom: 16 }}>
        <div style={{ display: "flex", alignItems: "center", gap: 12, flexWrap: "wrap" }}>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="studio-title">
            {name || d?.draft.agentName}
          </Typography.Title>
          {released ? (
            <Tag color="green">
              {t("agents.studio.status.released")} v{d?.latestVersion}
            </Tag>
          ) : (
            <Tag color="gold">{t("agents.studio.status.unreleased")}</Tag>
          )}
          {released && d?.changedSinceRelease && (
            <Tag color="blue" data-testid="studio-unreleased-changes">
              {t("agents.studio.unreleasedChanges")}
            </Tag>
          )}
          {unsaved && <Tag color="orange">{t("agents.studio.unsaved")}</Tag>}
          <div style={{ flex: 1 }} />
          <Button icon={<MessageOutlined />} onClick={() => setConversationsOpen(true)} disabled={!d} data-testid="studio-conversations">
            {t("agents.conversations.open")}
          </Button>
          <Button icon={<HistoryOutlined />} onClick={() => setVersionsOpen(true)} disabled={!d} data-testid="studio-versions">
            {t("agents.studio.versions")}
          </Button>
          <Button icon={<SaveOutlined />} onClick={save} loading={saving} data-testid="studio-save">
            {t("agents.studio.save")}
          </Button>
          <Tooltip title={unsaved ? t("agents.studio.saveFirst") : d.debugSucceeded ? undefined : t("agents.studio.debugFirst")}>
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
          {/* Debug pane: the reusable chat view runs the saved draft (release: false), so with unsaved
              edits it asks for a save first; a reply that ends done marks the revision it ran debugged
              on the server, so the draft is refetched to unlock release. */}
          <Card
            title={t("agents.studio.debug")}
            style={{ position: "sticky", top: 16 }}
            data-testid="studio-debug-pane"
            extra={
              agentId && (
                <Space size={4}>
                  <MemoryButton agentId={agentId} release={false} sessionId={debugSession !== creatingDebug ? debugSession : null} />
                  <Tooltip title={t("agents.studio.debugNew")}>
                    <Button
                      type="text"
                      icon={<PlusOutlined />}
                      aria-label={t("agents.studio.debugNew")}
                      disabled={!debugSession}
                      onClick={newDebug}
                      data-testid="studio-debug-new"
                    />
                  </Tooltip>
                </Space>
              )
            }
          >
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
              {agentId && d ? (
                <ChatPanel
                  key={agentId}
                  agentId={agentId}
                  release={false}
                  agent={{ ...d.draft, prologue: d.draft.chatOption.prologue, presetQuestions: d.draft.chatOption.presetQuestions }}
                  sessionId={debugSession}
                  history={debugSession ? debug.history : undefined}
                  replying={debug.replying}
                  onSession={(sid, _title, created) => {
                    if (!created) return;
                    setStudioDebugSession(agentId, sid);
                    setCreatingDebug(sid);
                    setDebugSession(sid);
                  }}
                  onFinish={(status) => {
                    setCreatingDebug(null);
                    if (status === "done") void queryClient.invalidateQueries({ queryKey: draftKey(agentId) });
                    // The model may have remembered something (update_memory).
                    void queryClient.invalidateQueries({ queryKey: ["chat", "memory", agentId] });
                  }}
                  blocked={
                    unsaved ? { notice: saveToDebug, onBlocked: () => void message.warning(t("agents.studio.saveToDebug")) } : undefined
                  }
                />
              ) : (
                <div style={{ margin: "auto" }}>{saveToDebug}</div>
              )}
            </div>
            <Space direction="vertical">
              {unsaved ? (
                <Alert type="warning" showIcon title={t("agents.studio.saveToDebug")} data-testid="studio-debug-unsaved" />
              ) : d.debugSucceeded ? (
                <Alert type="success" showIcon title={t("agents.studio.debugOk")} data-testid="studio-debug-ok" />
              ) : (
                <Alert type="warning" showIcon title={t("agents.studio.debugNeeded")} data-testid="studio-debug-needed" />
              )}
              {d && <Typography.Text type="secondary">{t("agents.studio.revision", { revision: d.revision })}</Typography.Text>}
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
          // The count sits below the box: room for it above the dialog's buttons.
          style={{ marginTop: 8, marginBottom: 24 }}
          data-testid="release-notes"
        />
      </Modal>
      {agentId && <VersionsDrawer agentId={agentId} open={versionsOpen} onClose={() => setVersionsOpen(false)} />}
      {agentId && <ConversationsDrawer agentId={agentId} open={conversationsOpen} onClose={() => setConversationsOpen(false)} />}
    </div>
  );
}
