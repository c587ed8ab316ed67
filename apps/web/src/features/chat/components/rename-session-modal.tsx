import { SESSION_TITLE_MAX, type SessionItem } from "@agentfair/contracts";
import { App, Form, Input, Modal } from "antd";
import { useTranslation } from "react-i18next";
import { validated } from "../../../lib/form";
import { updateSessionTitle } from "../api/update-session-title";

/** Renames a session; loaded on first use, so the chat page's first load carries no form code. */
export function RenameSessionModal({ session, onClose, onSaved }: { session: SessionItem; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ title: string }>();

  const saveTitle = async () => {
    const values = await validated(form);
    if (!values) return;
    // A refusal of the server was already shown by the http client.
    const saved = await updateSessionTitle(session.session_id, values.title.trim()).then(
      () => true,
      () => false,
    );
    if (!saved) return;
    message.success(t("chat.renamed"));
    onSaved();
  };

  return (
    <Modal open title={t("chat.renameTitle")} onOk={saveTitle} onCancel={onClose} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ title: session.title }}>
        <Form.Item
          name="title"
          rules={[
            { validator: (_, v: string) => (v?.trim() ? Promise.resolve() : Promise.reject(new Error(t("chat.titleEmpty")))) },
            {
              validator: (_, v: string) =>
                [...(v?.trim() ?? "")].length <= SESSION_TITLE_MAX ? Promise.resolve() : Promise.reject(new Error(t("chat.titleTooLong"))),
            },
          ]}
        >
          <Input autoFocus onPressEnter={saveTitle} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
