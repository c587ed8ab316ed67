import { CloseOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import type { AdminTenant } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Empty, Form, Input, Modal, Result, Space, Switch, Table, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PageTitle } from "../../../components/page-title";
import { HttpError } from "../../../lib/http";
import { useUserInfo } from "../../auth/api/user-info";
import { adminTenantsKey, useAdminTenants } from "../api/admin-tenants";
import { TenantFormModal } from "../components/tenant-form-modal";
import { setTenantRegistration, setTenantRole } from "../api/set-tenant-role";
import { validated } from "../../../lib/form";

/** Platform administrators: who administers each tenant (others see 403; no list is requested). */
export function AdminTenantsPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  if (!user.data) return null;
  if (!user.data.isAdmin) return <Result status="403" title="403" subTitle={t("http.unauthorized")} />;
  return <TenantAdmins />;
}

function TenantAdmins() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const tenants = useAdminTenants();
  const [granting, setGranting] = useState<AdminTenant | null>(null);
  // null: closed; "new": the create form; a tenant: its branding.
  const [editing, setEditing] = useState<AdminTenant | "new" | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ username: string }>();

  const store = (updated: AdminTenant) =>
    queryClient.setQueryData<AdminTenant[]>(adminTenantsKey, (list) => list?.map((x) => (x.id === updated.id ? updated : x)));

  const grant = async () => {
    if (!granting) return;
    const values = await validated(form);
    if (!values) return;
    const { username } = values;
    setSaving(true);
    try {
      store(await setTenantRole(granting.id, { username: username.trim(), role: "admin" }, { silent: true }));
      message.success(t("tenants.admin.granted"));
      setGranting(null);
    } catch (err) {
      // the server's message (e.g. no such user in this tenant) goes under the field
      form.setFields([{ name: "username", errors: [err instanceof HttpError ? err.message : String(err)] }]);
    } finally {
      setSaving(false);
    }
  };
  const revoke = (tenant: AdminTenant, username: string) =>
    modal.confirm({
      title: t("tenants.admin.revokeConfirm", { username }),
      okButtonProps: { danger: true },
      okText: t("tenants.admin.revoke"),
      onOk: async () => {
        store(await setTenantRole(tenant.id, { username, role: "member" }));
        message.success(t("tenants.admin.revoked"));
      },
    });

  return (
    <div style={{ maxWidth: 1200, margin: "0 auto", padding: 24 }}>
      <Card
        title={<PageTitle title={t("tenants.admin.title")} subtitle={t("tenants.admin.subtitle")} />}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")}>
            {t("tenants.admin.createTitle")}
          </Button>
        }
      >
        <Table<AdminTenant>
          rowKey="id"
          loading={tenants.isLoading}
          dataSource={tenants.data ?? []}
          pagination={false}
          // Narrow windows scroll the table rather than break names and addresses a letter a line.
          scroll={{ x: "max-content" }}
          locale={{ emptyText: <Empty description={t("tenants.admin.empty")} /> }}
          columns={[
            {
              title: t("tenants.admin.name"),
              dataIndex: "name",
              render: (v: string, tenant) => (
                <Space>
                  <img src={tenant.logo || "/favicon.svg"} alt="" width={20} height={20} />
                  <Typography.Text strong>{v}</Typography.Text>
                </Space>
              ),
            },
            {
              title: t("tenants.admin.domain"),
              dataIndex: "domain",
              // The tenant's login page, to see its branding as its users do.
              render: (v: string) => (
                <Typography.Link code href={`/${v}/login`} target="_blank" rel="noreferrer" title={t("tenants.admin.openLogin")}>
                  /{v}
                </Typography.Link>
              ),
            },
            { title: t("tenants.admin.users"), dataIndex: "userCount", width: 100 },
            {
              // No fixed width: "Open sign-up" broke over two lines in 110 px.
              title: <Tooltip title={t("tenants.admin.registrationHint")}>{t("tenants.admin.registration")}</Tooltip>,
              render: (_, tenant) => (
                <Switch
                  checked={tenant.openRegistration}
                  aria-label={`${t("tenants.admin.registration")} ${tenant.name}`}
                  data-testid={`tenant-registration-${tenant.domain}`}
                  onChange={async (open) => {
                    try {
                      store(await setTenantRegistration(tenant.id, open));
                      message.success(
                        t(open ? "tenants.admin.registrationOpened" : "tenants.admin.registrationClosed", { name: tenant.name }),
                      );
                    } catch {
                      // the http client showed the refusal; the switch stays as it was
                    }
                  }}
                />
              ),
            },
            {
              title: t("tenants.admin.admins"),
              render: (_, tenant) =>
                tenant.admins.length ? (
                  <Space size={[6, 6]} wrap>
                    {tenant.admins.map((a) => (
                      <Tag
                        key={a.userId}
                        color={a.disabled ? "default" : "blue"}
                        closable
                        closeIcon={<CloseOutlined aria-label={`${t("tenants.admin.revoke")} ${a.username}`} />}
                        onClose={(e) => {
                          e.preventDefault();
                          revoke(tenant, a.username);
                        }}
                      >
                        {a.nickname === a.username ? a.username : `${a.nickname} (${a.username})`}
                        {a.disabled && ` · ${t("tenants.admin.stopped")}`}
                      </Tag>
                    ))}
                  </Space>
                ) : (
                  <Typography.Text type="secondary">{t("tenants.admin.none")}</Typography.Text>
                ),
            },
            {
              title: t("tenants.admin.actions"),
              width: 220,
              fixed: "right",
              render: (_, tenant) => (
                <Space>
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() => {
                      form.resetFields();
                      setGranting(tenant);
                    }}
                  >
                    {t("tenants.admin.grant")}
                  </Button>
                  <Button
                    icon={<EditOutlined />}
                    aria-label={`${t("tenants.admin.edit")} ${tenant.name}`}
                    onClick={() => setEditing(tenant)}
                  />
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <TenantFormModal
        key={editing === "new" ? "new" : editing?.id}
        open={!!editing}
        tenant={editing === "new" ? null : editing}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          setEditing(null);
          if (editing === "new") void queryClient.invalidateQueries({ queryKey: adminTenantsKey });
          else store(saved);
        }}
      />
      <Modal
        open={!!granting}
        title={granting ? t("tenants.admin.grantTitle", { name: granting.name }) : ""}
        onOk={grant}
        confirmLoading={saving}
        onCancel={() => setGranting(null)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={grant}>
          <Form.Item
            name="username"
            label={t("tenants.admin.username")}
            extra={t("tenants.admin.usernameHint")}
            rules={[{ required: true, whitespace: true, message: t("tenants.admin.usernameRequired") }]}
          >
            <Input maxLength={64} autoFocus onChange={() => form.setFields([{ name: "username", errors: [] }])} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
