import type { KnowledgeBase } from "@agentfair/contracts";
import { Alert, App, Form, Input, Modal, Select } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { HttpError } from "../../../lib/http";
import { useEmbeddingModels } from "../api/embedding-models";
import { createKnowledge, updateKnowledge } from "../api/save-knowledge";
import { validated } from "../../../lib/form";

/**
 * Create and edit a knowledge base: a modal with a name (doc 2 §2, §5, §8) and the embedding model
 * (empty: the default one); a new model re-embeds the stored segments without parsing again.
 */
export function KnowledgeModal({
  open,
  base,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** The base being edited; null creates one. */
  base: KnowledgeBase | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string; embeddingModelId?: string | null }>();
  const [saving, setSaving] = useState(false);
  const models = useEmbeddingModels(open);
  const chosen = Form.useWatch("embeddingModelId", form);
  const modelChanged = !!base && (chosen ?? null) !== (base.embeddingModelId ?? null);

  useEffect(() => {
    if (open) form.setFieldsValue({ name: base?.name ?? "", embeddingModelId: base?.embeddingModelId ?? null });
  }, [open, base, form]);

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    const { name, embeddingModelId } = values;
    setSaving(true);
    try {
      if (base) {
        await updateKnowledge({ id: base.id, name: name.trim(), embeddingModelId: embeddingModelId ?? null });
        message.success(t("knowledge.modal.saved"));
      } else {
        await createKnowledge({ name: name.trim(), embeddingModelId: embeddingModelId ?? null });
        message.success(t("knowledge.modal.created"));
      }
      onSaved();
    } catch (e) {
      // Doc 2 §8: show the server's msg; 'creation failed!' when it gave none.
      message.error((e instanceof HttpError && e.code !== undefined && e.message) || t("knowledge.modal.createFailed"));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={base ? t("knowledge.modal.editTitle") : t("knowledge.modal.createTitle")}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={saving}
      okText={t("common.confirm")}
      cancelText={t("common.cancel")}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={submit} data-testid="knowledge-form">
        <Form.Item
          name="name"
          label={t("knowledge.modal.name")}
          rules={[{ required: true, whitespace: true, message: t("knowledge.modal.nameRequired") }]}
        >
          <Input maxLength={100} placeholder={t("knowledge.modal.nameRequired")} data-testid="knowledge-name" />
        </Form.Item>
        <Form.Item name="embeddingModelId" label={t("knowledge.modal.embeddingModel")} extra={t("knowledge.modal.embeddingHint")}>
          <Select
            allowClear
            loading={models.isLoading}
            placeholder={t("knowledge.modal.embeddingDefault")}
            options={(models.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
            notFoundContent={t("knowledge.modal.noEmbeddingModels")}
            data-testid="knowledge-embedding"
          />
        </Form.Item>
        {modelChanged && <Alert type="info" showIcon title={t("knowledge.modal.reembed")} data-testid="knowledge-reembed" />}
      </Form>
    </Modal>
  );
}
