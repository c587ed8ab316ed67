import { UploadOutlined } from "@ant-design/icons";
import { App as AntApp, Button, Form, Input, Modal, Upload, type UploadFile } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { submitTransfer } from "../api/transfer";
import { validated } from "../../../lib/form";

const IMAGE_TYPES = ["image/png", "image/jpeg"];

/** The offline bank-transfer form (behind the BANK_TRANSFER setting): all fields required, png/jpg only. */
export function TransferForm({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<{ companyName: string; contacts: string; img: UploadFile[] }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    const file = values.img?.[0]?.originFileObj;
    if (!file) return;
    setBusy(true);
    try {
      await submitTransfer({ companyName: values.companyName, contacts: values.contacts, img: file });
      message.success(t("billing.transfer.submitted"));
      form.resetFields();
      onClose();
    } catch {
      // the http client has shown the server's msg
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={t("billing.transfer.title")} onCancel={onClose} onOk={submit} confirmLoading={busy} destroyOnHidden>
      <Form form={form} layout="vertical">
        <Form.Item
          name="companyName"
          label={t("billing.transfer.companyName")}
          rules={[{ required: true, whitespace: true, message: t("billing.transfer.companyNameRequired") }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="contacts"
          label={t("billing.transfer.contacts")}
          rules={[{ required: true, whitespace: true, message: t("billing.transfer.contactsRequired") }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="img"
          label={t("billing.transfer.img")}
          valuePropName="fileList"
          getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList.slice(-1)}
          rules={[
            { required: true, message: t("billing.transfer.imgRequired") },
            {
              validator: (_, files: UploadFile[] | undefined) =>
                !files?.length || IMAGE_TYPES.includes(files[0].type ?? "")
                  ? Promise.resolve()
                  : Promise.reject(new Error(t("billing.transfer.imgType"))),
            },
          ]}
        >
          <Upload accept=".png,.jpg,.jpeg" beforeUpload={() => false} maxCount={1} listType="picture">
            <Button icon={<UploadOutlined />}>{t("billing.transfer.upload")}</Button>
          </Upload>
        </Form.Item>
      </Form>
    </Modal>
  );
}
