import { HTTP_METHODS, type PluginInput } from "@agentfair/contracts";
import { Form, Input, Modal, Select, Space } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { RequestTables } from "./request-tables";

/**
 * The import modal's detail editor (doc 2 §2): one found plugin's name, method and URL,
 * description, header / parameter / body / path-variable tables and body content type, edited
 * before saving. Nothing is sent here: OK hands the edited plugin back to the found list.
 */
export function ImportPluginDetail({
  value,
  onCancel,
  onOk,
}: {
  value: PluginInput | null;
  onCancel: () => void;
  onOk: (p: PluginInput) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<PluginInput | null>(value);
  useEffect(() => setDraft(value), [value]);
  const edit = (patch: Partial<PluginInput>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const nameMissing = !!draft && !draft.pluginName.trim();
  const urlMissing = !!draft && !draft.url.trim();

  return (
    <Modal
      open={!!value}
      title={t("tools.import.detailTitle")}
      width={920}
      onCancel={onCancel}
      okText={t("common.confirm")}
      cancelText={t("common.cancel")}
      okButtonProps={{ disabled: nameMissing || urlMissing, "data-testid": "import-detail-ok" } as never}
      onOk={() => draft && onOk({ ...draft, pluginName: draft.pluginName.trim(), url: draft.url.trim() })}
      destroyOnHidden
    >
      {draft && (
        <Form layout="vertical" data-testid="import-detail">
          <Form.Item
            label={t("tools.create.pluginName")}
            required
            validateStatus={nameMissing ? "error" : undefined}
            help={nameMissing ? t("tools.create.pluginNameRequired") : undefined}
          >
            <Input
              aria-label={t("tools.create.pluginName")}
              value={draft.pluginName}
              maxLength={100}
              onChange={(e) => edit({ pluginName: e.target.value })}
            />
          </Form.Item>
          <Form.Item
            label={`${t("tools.editor.method")} / ${t("tools.editor.url")}`}
            required
            validateStatus={urlMissing ? "error" : undefined}
            help={urlMissing ? t("tools.create.urlRequired") : undefined}
          >
            <Space.Compact style={{ width: "100%" }}>
              <Select
                aria-label={t("tools.editor.method")}
                style={{ width: 120 }}
                value={draft.method}
                onChange={(method) => edit({ method })}
                options={HTTP_METHODS.map((m) => ({ value: m, label: m }))}
              />
              <Input
                aria-label={t("tools.editor.url")}
                value={draft.url}
                placeholder="https://"
                onChange={(e) => edit({ url: e.target.value })}
              />
            </Space.Compact>
          </Form.Item>
          <Form.Item label={t("tools.create.description")}>
            <Input.TextArea
              aria-label={t("tools.create.description")}
              rows={2}
              maxLength={2000}
              value={draft.pluginDescription}
              onChange={(e) => edit({ pluginDescription: e.target.value })}
            />
          </Form.Item>
          <RequestTables value={draft} onChange={edit} testIdPrefix="import-rows" headersFirst />
        </Form>
      )}
    </Modal>
  );
}
