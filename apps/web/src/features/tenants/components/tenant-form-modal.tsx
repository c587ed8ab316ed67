import { UploadOutlined } from "@ant-design/icons";
import { type AdminTenant, PASSWORD_MIN, type TenantCreateInput } from "@agentfair/contracts";
import { App, Button, Checkbox, Divider, Flex, Form, Input, Modal, Space, Typography, Upload } from "antd";
import { useTranslation } from "react-i18next";
import { uploadIcon } from "../../../components/icon-picker/api";
import { hinted, useFormSave } from "../../../lib/form";
import { API } from "../../../lib/http";
import { createTenant, setTenantBranding } from "../api/save-tenant";
import { USERNAME } from "./member-dialogs";

interface Values {
  domain: string;
  name: string;
  logo: string;
  primaryColor: string;
  backgroundColor: string;
  recordFiling: string;
  openRegistration: boolean;
  adminUsername?: string;
  adminPassword?: string;
}

/**
 * A colour as #rrggbb: the browser's own picker beside its code, which can be typed or pasted. (Not
 * antd's ColorPicker: antd's Button styles import a module of it, and using the picker anywhere then
 * puts its presets and Collapse in the first load of every page, about 6 KB gzipped.)
 */
function ColorField({ id, value = "#000000", onChange }: { id?: string; value?: string; onChange?: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <Space.Compact>
      <input
        type="color"
        style={{
          width: 40,
          height: 32,
          padding: 3,
          border: "1px solid #d9d9d9",
          borderRadius: "6px 0 0 6px",
          background: "#fff",
          cursor: "pointer",
        }}
        aria-label={t("tenants.admin.pickColor")}
        value={/^#[0-9a-f]{6}$/i.test(value) ? value : "#000000"}
        onChange={(e) => onChange?.(e.target.value)}
      />
      <Input id={id} value={value} maxLength={7} style={{ width: 96 }} onChange={(e) => onChange?.(e.target.value.trim())} />
    </Space.Compact>
  );
}

/**
 * A new tenant (its domain, branding, sign-ups and first administrator), or an existing tenant's
 * branding: the domain is its users' login address and stays. A preview shows the login page's header.
 */
export function TenantFormModal({
  tenant,
  open,
  onClose,
  onSaved,
}: {
  tenant: AdminTenant | null;
  open: boolean;
  onClose: () => void;
  onSaved: (tenant: AdminTenant) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const creating = !tenant;
  const colorRule = { pattern: /^#[0-9a-fA-F]{6}$/, message: t("tenants.admin.colorInvalid") };
  const preview = Form.useWatch([], form) as Partial<Values> | undefined;

  const { save, saving } = useFormSave(
    form,
    async (values) => {
      const branding = {
        name: values.name,
        logo: values.logo ?? "",
        primaryColor: values.primaryColor,
        backgroundColor: values.backgroundColor,
        recordFiling: values.recordFiling ?? "",
      };
      let saved: AdminTenant;
      if (tenant) saved = await setTenantBranding(tenant.id, branding, { silent: true });
      else {
        const body: TenantCreateInput = { ...branding, domain: values.domain, openRegistration: !!values.openRegistration };
        if (values.adminUsername?.trim()) body.admin = { username: values.adminUsername.trim(), password: values.adminPassword ?? "" };
        saved = await createTenant(body, { silent: true });
      }
      message.success(t(creating ? "tenants.admin.created" : "tenants.admin.saved"));
      onSaved(saved);
    },
    {
      domain: /域名|domain/i,
      logo: /Logo/i,
      primaryColor: /颜色|colour/i,
      adminUsername: /用户名|username/i,
      adminPassword: /密码|password/i,
      name: null,
    },
  );

  const upload = async (file: File) => {
    try {
      const { id } = await uploadIcon(file);
      form.setFieldValue("logo", `${API.agent}/api/files/data/${id}`);
    } catch {
      // the http client showed the refusal
    }
    return false;
  };

  const clearError = (name: keyof Values) => () => form.setFields([{ name, errors: [] }]);

  return (
    <Modal
      open={open}
      title={creating ? t("tenants.admin.createTitle") : t("tenants.admin.editTitle", { name: tenant.name })}
      onOk={save}
      okText={creating ? t("tenants.admin.create") : t("tenants.admin.save")}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
      width={600}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={save}
        initialValues={{
          domain: tenant?.domain ?? "",
          name: tenant?.name ?? "",
          logo: tenant?.logo ?? "",
          primaryColor: tenant?.primaryColor ?? "#1677ff",
          backgroundColor: tenant?.backgroundColor ?? "#f0f5ff",
          recordFiling: tenant?.recordFiling ?? "",
          openRegistration: false,
        }}
      >
        <Form.Item
          {...hinted}
          name="domain"
          label={t("tenants.admin.domain")}
          extra={creating ? t("tenants.admin.domainHint") : t("tenants.admin.domainFixed")}
          rules={[
            { required: true, whitespace: true, message: t("tenants.admin.domainRequired") },
            // The server's rule (it also lowercases); reserved paths are its to refuse.
            { pattern: /^\s*[A-Za-z][A-Za-z0-9-]{1,31}\s*$/, message: t("tenants.admin.domainRule") },
          ]}
        >
          <Input
            disabled={!creating}
            maxLength={32}
            addonBefore={`${window.location.host}/`}
            addonAfter="/login"
            autoFocus={creating}
            onChange={clearError("domain")}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t("tenants.admin.nameLabel")}
          rules={[{ required: true, whitespace: true, message: t("tenants.admin.nameRequired") }]}
        >
          <Input maxLength={40} onChange={clearError("name")} />
        </Form.Item>
        <Form.Item {...hinted} label={t("tenants.admin.logo")} extra={t("tenants.admin.logoHint")}>
          <Space>
            <Form.Item name="logo" noStyle>
              <Input style={{ width: 300 }} placeholder="/agent_api/api/files/data/…" onChange={clearError("logo")} />
            </Form.Item>
            <Upload accept=".png,.jpg,.jpeg,.gif" showUploadList={false} beforeUpload={upload}>
              <Button icon={<UploadOutlined />}>{t("tenants.admin.upload")}</Button>
            </Upload>
          </Space>
        </Form.Item>
        <Flex gap={16}>
          <Form.Item name="primaryColor" label={t("tenants.admin.primaryColor")} rules={[colorRule]}>
            <ColorField />
          </Form.Item>
          <Form.Item name="backgroundColor" label={t("tenants.admin.backgroundColor")} rules={[colorRule]}>
            <ColorField />
          </Form.Item>
          <Form.Item name="recordFiling" label={t("tenants.admin.recordFiling")} style={{ flex: 1 }}>
            <Input maxLength={100} placeholder="京ICP备00000000号" />
          </Form.Item>
        </Flex>
        <Typography.Text type="secondary">{t("tenants.admin.preview")}</Typography.Text>
        <Flex
          align="center"
          gap={12}
          data-testid="tenant-preview"
          style={{ marginTop: 8, padding: 16, borderRadius: 8, background: preview?.backgroundColor ?? "#f0f5ff" }}
        >
          <img src={preview?.logo || "/favicon.svg"} alt="" width={32} height={32} />
          <Typography.Text strong style={{ color: preview?.primaryColor ?? "#1677ff", fontSize: 18 }}>
            {preview?.name || t("tenants.admin.nameLabel")}
          </Typography.Text>
        </Flex>
        {creating && (
          <>
            <Divider />
            <Form.Item name="openRegistration" valuePropName="checked" extra={t("tenants.admin.registrationHint")}>
              <Checkbox>{t("tenants.admin.openRegistration")}</Checkbox>
            </Form.Item>
            <Typography.Paragraph type="secondary">{t("tenants.admin.firstAdminHint")}</Typography.Paragraph>
            <Flex gap={16}>
              <Form.Item
                name="adminUsername"
                label={t("tenants.admin.firstAdmin")}
                style={{ flex: 1 }}
                rules={[
                  {
                    // The rule of registration, said here rather than as the server's "参数错误：admin.username …".
                    validator: (_, v?: string) =>
                      !v?.trim() || USERNAME.test(v.trim())
                        ? Promise.resolve()
                        : Promise.reject(new Error(t("tenants.members.usernameRule"))),
                  },
                ]}
              >
                <Input maxLength={32} autoComplete="off" onChange={clearError("adminUsername")} />
              </Form.Item>
              <Form.Item
                name="adminPassword"
                label={t("tenants.admin.firstPassword")}
                style={{ flex: 1 }}
                dependencies={["adminUsername"]}
                rules={[
                  ({ getFieldValue }) => ({
                    validator: (_, v) =>
                      !getFieldValue("adminUsername")?.trim() || (v ?? "").length >= PASSWORD_MIN
                        ? Promise.resolve()
                        : Promise.reject(new Error(t("tenants.admin.passwordShort"))),
                  }),
                ]}
              >
                <Input.Password maxLength={128} autoComplete="new-password" onChange={clearError("adminPassword")} />
              </Form.Item>
            </Flex>
          </>
        )}
      </Form>
    </Modal>
  );
}
