import { isEmail, isPhone, PASSWORD_MIN, type TenantMember } from "@agentfair/contracts";
import { Checkbox, Form, type FormInstance, Input, Modal, Typography } from "antd";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { hinted, useFormSave } from "../../../lib/form";
import { addTenantMember, updateTenantMember } from "../api/save-tenant-member";

type AddValues = { username: string; nickname?: string; contact?: string; password: string; admin?: boolean };

/** A username of registration's rule (contracts' registerRequest). */
export const USERNAME = /^[A-Za-z0-9_\u4e00-\u9fa5]{2,32}$/;

/** A server's message under a field goes once the field changes (its own rules then speak). */
const clearRefusals =
  <V,>(form: FormInstance<V>) =>
  (changed: Partial<V>) =>
    form.setFields(Object.keys(changed).map((name) => ({ name: name as never, errors: [] })));

const passwordRules = (t: TFunction) => [
  { required: true, message: t("tenants.members.passwordRequired") },
  { min: PASSWORD_MIN, max: 128, message: t("tenants.members.passwordRule") },
];

/** Adds a member with a first password the administrator passes on; a refusal shows under its field. */
export function AddMemberDialog({ onClose, onAdded }: { onClose: () => void; onAdded: (member: TenantMember) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AddValues>();
  const { save, saving } = useFormSave(
    form,
    async (values) =>
      onAdded(
        await addTenantMember(
          {
            username: values.username.trim(),
            nickname: values.nickname?.trim() || undefined,
            contact: values.contact?.trim() || undefined,
            password: values.password,
            role: values.admin ? "admin" : "member",
          },
          { silent: true },
        ),
      ),
    { contact: /邮箱|手机|e-?mail|phone/i, username: /用户名|username/i, password: /密码|password/i, nickname: null },
  );

  return (
    <Modal open title={t("tenants.members.add")} onOk={save} confirmLoading={saving} onCancel={onClose} width={520}>
      <Form form={form} layout="vertical" requiredMark onFinish={save} onValuesChange={clearRefusals(form)} style={{ marginTop: 16 }}>
        <Form.Item
          {...hinted}
          name="username"
          label={t("tenants.members.username")}
          extra={t("tenants.members.usernameHint")}
          rules={[
            { required: true, whitespace: true, message: t("tenants.members.usernameRequired") },
            {
              validator: (_, v?: string) =>
                !v?.trim() || USERNAME.test(v.trim()) ? Promise.resolve() : Promise.reject(new Error(t("tenants.members.usernameRule"))),
            },
          ]}
        >
          <Input maxLength={32} autoFocus autoComplete="off" data-testid="member-username" />
        </Form.Item>
        <Form.Item {...hinted} name="nickname" label={t("tenants.members.nickname")} extra={t("tenants.members.nicknameHint")}>
          <Input maxLength={32} autoComplete="off" />
        </Form.Item>
        <Form.Item
          {...hinted}
          name="contact"
          label={t("tenants.members.contact")}
          extra={t("tenants.members.contactHint")}
          rules={[
            {
              validator: (_, v?: string) =>
                !v?.trim() || isEmail(v.trim()) || isPhone(v.trim())
                  ? Promise.resolve()
                  : Promise.reject(new Error(t("tenants.members.contactRule"))),
            },
          ]}
        >
          <Input maxLength={128} autoComplete="off" />
        </Form.Item>
        <Form.Item
          {...hinted}
          name="password"
          label={t("tenants.members.password")}
          extra={t("tenants.members.passwordHint")}
          rules={passwordRules(t)}
        >
          {/* new-password: the browser must not fill in the administrator's own. */}
          <Input.Password maxLength={128} autoComplete="new-password" data-testid="member-password" />
        </Form.Item>
        <Form.Item name="admin" valuePropName="checked" style={{ marginBottom: 0 }}>
          <Checkbox>{t("tenants.members.admin")}</Checkbox>
        </Form.Item>
        {/* Enter in a field submits. */}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

/** Sets a member's new password, which signs them out everywhere. */
export function ResetPasswordDialog({
  member,
  onClose,
  onDone,
}: {
  member: TenantMember;
  onClose: () => void;
  onDone: (member: TenantMember) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const { save, saving } = useFormSave(
    form,
    async (values) => onDone(await updateTenantMember(member.id, { password: values.password }, { silent: true })),
    { password: /密码|password/i },
  );

  return (
    <Modal
      open
      title={t("tenants.members.resetTitle", { username: member.username })}
      onOk={save}
      confirmLoading={saving}
      onCancel={onClose}
      width={440}
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t("tenants.members.resetHint")}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={save} onValuesChange={clearRefusals(form)}>
        <Form.Item name="password" label={t("tenants.members.newPassword")} rules={passwordRules(t)} style={{ marginBottom: 0 }}>
          <Input.Password maxLength={128} autoFocus autoComplete="new-password" data-testid="member-new-password" />
        </Form.Item>
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}
