import { ArrowLeftOutlined } from "@ant-design/icons";
import { HTTP_METHODS, type ParameterRow, type Plugin, type PluginInput, type PluginTestResult } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Col, Form, Input, Row, Select, Space, Spin, Switch, Tag, Typography } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { CodeEditor } from "../../../components/code-editor";
import { IconPickerButton } from "../../../components/icon-picker/icon-picker";
import { toolsKey } from "../api/plugin-page";
import { pluginKey, usePlugin } from "../api/plugin";
import { publishPlugin } from "../api/publish-plugin";
import { updatePlugin } from "../api/update-plugin";
import { RequestTables } from "../components/request-tables";
import { RowsTable } from "../components/rows-table";
import { TestPanel } from "../components/test-panel";
import { ToolTypeTag } from "../components/tool-type-tag";

/** The fields a builder edits, taken from the stored plugin (the secret stays write-only). */
function inputOf(p: Plugin): PluginInput {
  return {
    pluginName: p.pluginName,
    pluginDescription: p.pluginDescription,
    pluginIcon: p.pluginIcon,
    pluginIconBackground: p.pluginIconBackground,
    pluginType: p.pluginType,
    pluginCallableName: p.pluginCallableName,
    pluginTags: p.pluginTags,
    pluginKind: p.pluginKind,
    parameters: p.parameters,
    headers: p.headers,
    body: p.body,
    pathVariables: p.pathVariables,
    url: p.url,
    method: p.method,
    contentType: p.contentType,
    rawBody: p.rawBody,
    code: p.code,
    netEnabled: p.netEnabled,
    netAllowHosts: p.netAllowHosts,
    auth: p.auth,
    mcp: p.mcp ?? undefined,
  };
}

/**
 * Plugin editor at /knowledge-list?id=&pluginType= (doc 2 §2): definition, test run, publish.
 * `cardSlot` is the card selector of another feature (cards), handed in by the app shell.
 */
export function PluginEditorPage({ cardSlot }: { cardSlot?: (pluginId: string, readOnly: boolean) => ReactNode } = {}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const query = usePlugin(id);
  const plugin = query.data;
  const [draft, setDraft] = useState<PluginInput | null>(null);
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState<"save" | "publish" | null>(null);
  // The draft follows the stored plugin while it has no unsaved edits: a refetch (another save,
  // a test's result, a language switch refetching everything) never wipes what is being typed.
  const [synced, setSynced] = useState<Plugin | undefined>(undefined);
  if (plugin && plugin !== synced && !dirty) {
    setSynced(plugin);
    setDraft(inputOf(plugin));
  }

  if (!id) return <Alert type="warning" message={t("tools.editor.notFound")} />;
  if (query.isLoading || !draft || !plugin) return query.isError ? <Alert type="error" message={t("tools.editor.notFound")} /> : <Spin />;

  const readOnly = !plugin.editable;
  const edit = (patch: Partial<PluginInput>) => {
    setDraft({ ...draft, ...patch });
    setDirty(true);
  };
  const rows = (key: "headers" | "parameters" | "body" | "pathVariables") => (
    <RowsTable testId={`rows-${key}`} value={draft[key]} disabled={readOnly} onChange={(v: ParameterRow[]) => edit({ [key]: v })} />
  );
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: pluginKey(id) });
    await queryClient.invalidateQueries({ queryKey: toolsKey });
  };

  const save = async (quiet = false) => {
    setBusy("save");
    try {
      const saved = await updatePlugin(id, draft);
      queryClient.setQueryData(pluginKey(id), saved);
      await queryClient.invalidateQueries({ queryKey: toolsKey });
      setDirty(false);
      if (!quiet) message.success(t("tools.editor.saved"));
      return true;
    } catch {
      return false; // the http client has shown the server's message
    } finally {
      setBusy(null);
    }
  };
  const publish = async () => {
    setBusy("publish");
    try {
      await publishPlugin(id);
      message.success(t("tools.editor.published"));
      await refresh();
    } catch {
      // the server's message ('please debug successfully before releasing') is shown by the http client
    } finally {
      setBusy(null);
    }
  };
  const onTested = (r: PluginTestResult) => {
    if (r.ok) queryClient.setQueryData(pluginKey(id), (p: Plugin | undefined) => (p ? { ...p, testSucceeded: true } : p));
  };

  const code = plugin.pluginType === "JAVASCRIPT" || plugin.pluginType === "PYTHON3";
  const released = plugin.pluginStatus === "C90_Released";

  return (
    <div style={{ maxWidth: 1400, margin: "0 auto" }} data-testid="plugin-editor">
      <Card
        title={
          <Space>
            <Button
              type="text"
              icon={<ArrowLeftOutlined />}
              onClick={() => navigate("/home?types=3")}
              aria-label={t("tools.editor.back")}
            />
            <span>{plugin.pluginName}</span>
            <ToolTypeTag type={plugin.pluginType} />
            {/* MCP tools have no publish state (hidden as in the list). */}
            {plugin.pluginType === "MCP" ? null : released ? (
              <Tag color="success" data-testid="plugin-status">
                {t("tools.list.published")}
              </Tag>
            ) : (
              <Tag data-testid="plugin-status">{t("tools.list.unpublished")}</Tag>
            )}
          </Space>
        }
        extra={
          !readOnly && (
            <Space>
              <Button onClick={() => save()} loading={busy === "save"} disabled={!dirty} data-testid="plugin-save">
                {t("tools.editor.save")}
              </Button>
              {/* A saved change unpublishes the plugin again (server side), so the button comes back. */}
              {!released && (
                <Button type="primary" onClick={publish} loading={busy === "publish"} disabled={dirty} data-testid="plugin-publish">
                  {t("tools.editor.publish")}
                </Button>
              )}
            </Space>
          )
        }
      >
        {readOnly && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t("tools.editor.notEditable")} />}
        {!readOnly && (
          <Alert
            style={{ marginBottom: 16 }}
            type={dirty ? "warning" : plugin.testSucceeded ? "success" : "info"}
            showIcon
            data-testid="plugin-test-state"
            message={t(dirty ? "tools.editor.unsavedHint" : plugin.testSucceeded ? "tools.editor.testedHint" : "tools.editor.untestedHint")}
          />
        )}
        <Row gutter={24}>
          <Col xs={24} lg={15}>
            <Form layout="vertical" disabled={readOnly}>
              <Typography.Title level={5}>{t("tools.editor.basics")}</Typography.Title>
              <Row gutter={16}>
                <Col flex="none">
                  <Form.Item label={t("tools.create.icon")}>
                    <IconPickerButton
                      size={56}
                      value={{ icon: draft.pluginIcon, background: draft.pluginIconBackground }}
                      onChange={(v) => edit({ pluginIcon: v.icon, pluginIconBackground: v.background })}
                    />
                  </Form.Item>
                </Col>
                <Col flex="auto">
                  <Form.Item label={t("tools.create.pluginName")} required>
                    <Input value={draft.pluginName} maxLength={100} onChange={(e) => edit({ pluginName: e.target.value })} />
                  </Form.Item>
                </Col>
                <Col span={8}>
                  <Form.Item label={t("tools.create.callableName")} required>
                    <Input value={draft.pluginCallableName} maxLength={64} onChange={(e) => edit({ pluginCallableName: e.target.value })} />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item label={t("tools.create.description")} required>
                <Input.TextArea
                  rows={2}
                  value={draft.pluginDescription}
                  maxLength={2000}
                  onChange={(e) => edit({ pluginDescription: e.target.value })}
                />
              </Form.Item>
              <Form.Item label={t("tools.create.group")} required>
                <Select mode="tags" maxCount={10} value={draft.pluginTags} onChange={(pluginTags) => edit({ pluginTags })} />
              </Form.Item>
              {plugin.pluginType === "HTTP" && (
                <>
                  <Typography.Title level={5}>{t("tools.editor.request")}</Typography.Title>
                  <Form.Item label={`${t("tools.editor.method")} / ${t("tools.editor.url")}`} required>
                    <Space.Compact style={{ width: "100%" }}>
                      <Select
                        style={{ width: 120 }}
                        value={draft.method}
                        onChange={(method) => edit({ method })}
                        options={HTTP_METHODS.map((m) => ({ value: m, label: m }))}
                      />
                      <Input value={draft.url} placeholder="https://" onChange={(e) => edit({ url: e.target.value })} />
                    </Space.Compact>
                  </Form.Item>
                  <RequestTables value={draft} onChange={edit} disabled={readOnly} testIdPrefix="rows" />
                </>
              )}
              {plugin.pluginType === "MCP" && plugin.mcp && (
                <div data-testid="mcp-settings">
                  <Typography.Title level={5}>{t("tools.editor.mcpServer")}</Typography.Title>
                  <Form.Item label={t("tools.create.mcpServerUrl")}>
                    <Input value={plugin.mcp.serverUrl} readOnly />
                  </Form.Item>
                  <Form.Item label={t("tools.editor.mcpToolName")}>
                    <Input value={plugin.mcp.toolName} readOnly />
                  </Form.Item>
                  <Form.Item label={t("tools.editor.mcpSchema")} extra={t("tools.editor.mcpReadd")}>
                    <Input.TextArea
                      readOnly
                      autoSize={{ minRows: 3, maxRows: 16 }}
                      style={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", fontSize: 12 }}
                      value={JSON.stringify(plugin.mcp.inputSchema ?? {}, null, 2)}
                    />
                  </Form.Item>
                </div>
              )}
              {code && (
                <>
                  <Typography.Title level={5}>{t("tools.editor.code")}</Typography.Title>
                  <Typography.Paragraph type="secondary">{t("tools.editor.codeHint")}</Typography.Paragraph>
                  <CodeEditor value={draft.code} onChange={(code) => edit({ code })} testId="plugin-code" minRows={12} />
                  <Typography.Title level={5} style={{ marginTop: 16 }}>
                    {t("tools.editor.parameters")}
                  </Typography.Title>
                  {rows("parameters")}
                  <Typography.Title level={5} style={{ marginTop: 16 }}>
                    {t("tools.editor.network")}
                  </Typography.Title>
                  <Form.Item extra={t(plugin.pluginType === "PYTHON3" ? "tools.editor.networkHintPython" : "tools.editor.networkHintJs")}>
                    <Space wrap>
                      <Switch
                        data-testid="plugin-net-enabled"
                        checked={draft.netEnabled}
                        onChange={(netEnabled) => edit({ netEnabled })}
                        aria-label={t("tools.editor.network")}
                      />
                      <Select
                        mode="tags"
                        data-testid="plugin-net-hosts"
                        aria-label={t("tools.editor.netHosts")}
                        style={{ minWidth: 360 }}
                        disabled={readOnly || !draft.netEnabled}
                        open={false}
                        maxCount={20}
                        value={draft.netAllowHosts}
                        placeholder={t("tools.editor.netHostsPlaceholder")}
                        onChange={(netAllowHosts: string[]) => edit({ netAllowHosts })}
                      />
                    </Space>
                  </Form.Item>
                </>
              )}
            </Form>
          </Col>
          <Col xs={24} lg={9}>
            <Card size="small" title={t("tools.editor.test")}>
              <TestPanel id={id} beforeRun={async () => (dirty ? save(true) : true)} onTested={onTested} />
            </Card>
            {cardSlot && <div style={{ marginTop: 16 }}>{cardSlot(id, readOnly)}</div>}
          </Col>
        </Row>
      </Card>
    </div>
  );
}
