import type { PluginInput } from "@agentfair/contracts";
import { App, Button, Form, Input, Modal, Radio, Select, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AgentIcon } from "../../../components/icon-picker/agent-icon";
import { useGroups } from "../api/groups";
import { parseOpenApi, saveOpenApi } from "../api/openapi";
import { ImportPluginDetail } from "./import-plugin-detail";
import { validated } from "../../../lib/form";

type Source = { kind: "url" | "json"; source: string; baseUrl: string };
/** A found plugin with a key of its own: names may repeat, and an edit may change them. */
type Found = PluginInput & { key: number };

/**
 * Import tools modal (doc 2 §2): an OpenAPI source as a URL or pasted JSON/YAML with a baseUrl,
 * 'fetch in one click', the plugins found (edit each in the detail editor, remove the unwanted ones),
 * then save them under a tag.
 */
export function ImportToolsModal({ open, onClose, onSaved }: { open: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Source>();
  const kind = Form.useWatch("kind", form) ?? "url";
  const groups = useGroups(open);
  const [found, setFound] = useState<Found[]>([]);
  const [editing, setEditing] = useState<Found | null>(null);
  const [tag, setTag] = useState<string[]>([]);
  const [busy, setBusy] = useState<"fetch" | "save" | null>(null);

  const close = () => {
    setFound([]);
    setTag([]);
    form.resetFields();
    onClose();
  };
  const fetchPlugins = async () => {
    const v = await validated(form);
    if (!v) return;
    setBusy("fetch");
    try {
      const { plugins } = await parseOpenApi(v.source, v.baseUrl);
      setFound(plugins.map((p, key) => ({ ...p, key })));
      if (!plugins.length) message.warning(t("tools.import.nothing"));
    } catch {
      // the http client has shown the server's message
    } finally {
      setBusy(null);
    }
  };
  const save = async () => {
    setBusy("save");
    try {
      await saveOpenApi(
        found.map(({ key: _key, ...p }) => p),
        tag[0] ?? "",
      );
      message.success(t("tools.import.saved"));
      onSaved();
      close();
    } catch {
      // the http client has shown the server's message
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      open={open}
      title={t("tools.import.title")}
      width={880}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close}>
          {t("common.cancel")}
        </Button>,
        <Button key="save" type="primary" disabled={!found.length} loading={busy === "save"} onClick={save}>
          {t("tools.import.save")}
        </Button>,
      ]}
    >
      <Form<Source> form={form} layout="vertical" initialValues={{ kind: "url", source: "", baseUrl: "" }}>
        <Form.Item name="kind" label={t("tools.import.source")}>
          <Radio.Group
            options={[
              { value: "url", label: t("tools.import.url") },
              { value: "json", label: t("tools.import.json") },
            ]}
          />
        </Form.Item>
        <Form.Item name="source" rules={[{ required: true, whitespace: true, message: t("tools.import.sourceRequired") }]}>
          {kind === "url" ? <Input placeholder="https://" /> : <Input.TextArea rows={6} style={{ fontFamily: "monospace" }} />}
        </Form.Item>
        <Form.Item
          name="baseUrl"
          label={t("tools.import.baseUrl")}
          rules={[{ required: true, whitespace: true, message: t("tools.import.baseUrlRequired") }]}
        >
          <Input placeholder="https://" />
        </Form.Item>
        <Button type="primary" onClick={fetchPlugins} loading={busy === "fetch"}>
          {t("tools.import.fetch")}
        </Button>
      </Form>
      {found.length > 0 && (
        <>
          <Table<Found>
            style={{ marginTop: 16 }}
            size="small"
            data-testid="import-found"
            rowKey="key"
            dataSource={found}
            pagination={false}
            scroll={{ y: 280 }}
            columns={[
              {
                title: t("tools.import.icon"),
                width: 60,
                render: (_v, p) => <AgentIcon icon={p.pluginIcon || "1"} background={p.pluginIconBackground} size={28} />,
              },
              { title: t("tools.import.name"), dataIndex: "pluginName" },
              {
                title: t("tools.import.description"),
                render: (_v, p) => (
                  <Typography.Text ellipsis style={{ maxWidth: 260 }}>
                    {p.pluginDescription}
                  </Typography.Text>
                ),
              },
              {
                title: t("tools.import.interfaceType"),
                render: (_v, p) => (
                  <span>
                    <Tag>{p.method}</Tag>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {p.url}
                    </Typography.Text>
                  </span>
                ),
              },
              {
                title: t("tools.list.actions"),
                width: 120,
                render: (_v, p) => (
                  <Space size={0}>
                    <Button type="link" size="small" onClick={() => setEditing(p)}>
                      {t("tools.list.edit")}
                    </Button>
                    <Button type="link" danger size="small" onClick={() => setFound(found.filter((x) => x.key !== p.key))}>
                      {t("tools.list.delete")}
                    </Button>
                  </Space>
                ),
              },
            ]}
          />
          <Form layout="vertical" style={{ marginTop: 16 }}>
            <Form.Item label={t("tools.import.tag")}>
              <Select
                mode="tags"
                maxCount={1}
                value={tag}
                onChange={setTag}
                placeholder={t("tools.create.groupPlaceholder")}
                options={(groups.data ?? []).map((g) => ({ value: g, label: g }))}
              />
            </Form.Item>
          </Form>
        </>
      )}
      <ImportPluginDetail
        value={editing}
        onCancel={() => setEditing(null)}
        onOk={(p) => {
          setFound(found.map((x) => (x.key === editing?.key ? { ...p, key: x.key } : x)));
          setEditing(null);
        }}
      />
    </Modal>
  );
}
