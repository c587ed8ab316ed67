import { PlusOutlined } from "@ant-design/icons";
import { TENANT_MEMBER_PAGE_SIZE, type TenantMember, type TenantMemberUpdate } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Empty, Input, Popconfirm, Result, Space, Table, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PageTitle } from "../../../components/page-title";
import { useUserInfo } from "../../auth/api/user-info";
import { updateTenantMember } from "../api/save-tenant-member";
import { tenantMembersKey, useTenantMembers } from "../api/tenant-members";
import { AddMemberDialog, ResetPasswordDialog } from "../components/member-dialogs";

const fmt = (iso: string | null) => (iso ? dayjs(iso).format("YYYY-MM-DD HH:mm") : null);

/** A tenant's administrators: the members of their own tenant (others see 403; no list is requested). */
export function MembersPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  if (!user.data) return null;
  if (!user.data.isTenantAdmin) return <Result status="403" title="403" subTitle={t("http.unauthorized")} />;
  return <TenantMembers me={user.data.userId} domain={user.data.tenantDomain} />;
}

function TenantMembers({ me, domain }: { me: string; domain: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [keyword, setKeyword] = useState("");
  const [page, setPage] = useState(1);
  const members = useTenantMembers(page, keyword);
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<TenantMember | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  /** One change of a row; the row is replaced in every cached page (a change never moves it). */
  const change = async (member: TenantMember, body: TenantMemberUpdate, done: string) => {
    setBusy(member.id);
    try {
      const updated = await updateTenantMember(member.id, body);
      queryClient.setQueriesData<{ list: TenantMember[]; total: number }>({ queryKey: tenantMembersKey }, (data) =>
        data ? { ...data, list: data.list.map((m) => (m.id === updated.id ? updated : m)) } : data,
      );
      message.success(t(done, { username: member.username }));
    } catch {
      // the http client has shown the server's message
    } finally {
      setBusy(null);
    }
  };

  const loginUrl = `${window.location.origin}/${domain}/login`;
  return (
    <div style={{ maxWidth: 1200, margin: "0 auto", padding: 24 }}>
      <Card
        title={<PageTitle title={t("tenants.members.title")} subtitle={t("tenants.members.subtitle", { login: loginUrl })} />}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="member-add">
            {t("tenants.members.add")}
          </Button>
        }
      >
        <Input.Search
          allowClear
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t("tenants.members.search")}
          aria-label={t("tenants.members.search")}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage(1);
          }}
          style={{ maxWidth: 360, marginBottom: 16 }}
          data-testid="member-search"
        />
        <Table<TenantMember>
          rowKey="id"
          size="middle"
          loading={members.isFetching}
          dataSource={members.data?.list ?? []}
          scroll={{ x: "max-content" }}
          onHeaderRow={() => ({ style: { whiteSpace: "nowrap" } })}
          locale={{ emptyText: <Empty description={t(keyword ? "tenants.members.noMatch" : "tenants.members.empty")} /> }}
          pagination={{
            current: page,
            pageSize: TENANT_MEMBER_PAGE_SIZE,
            total: members.data?.total ?? 0,
            onChange: setPage,
            showSizeChanger: false,
            hideOnSinglePage: true,
            showTotal: (count) => t("tenants.members.total", { count }),
          }}
          columns={[
            {
              title: t("tenants.members.member"),
              render: (_, m) => (
                <Space orientation="vertical" size={0}>
                  <Space size={6}>
                    <Typography.Text strong>{m.username}</Typography.Text>
                    {m.id === me && <Tag color="processing">{t("tenants.members.you")}</Tag>}
                  </Space>
                  {m.nickname !== m.username && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {m.nickname}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              title: t("tenants.members.contactColumn"),
              render: (_, m) =>
                m.email || m.phone ? (
                  <Space orientation="vertical" size={0}>
                    {m.email && <span>{m.email}</span>}
                    {m.phone && <span>{m.phone}</span>}
                  </Space>
                ) : (
                  <Typography.Text type="secondary">-</Typography.Text>
                ),
            },
            {
              title: t("tenants.members.role"),
              dataIndex: "role",
              render: (_, m) => (
                <Tag color={m.role === "admin" ? "blue" : "default"} style={{ marginInlineEnd: 0 }}>
                  {t(`tenants.members.roles.${m.role}`)}
                </Tag>
              ),
            },
            {
              title: t("tenants.members.status"),
              dataIndex: "disabled",
              render: (_, m) => (
                <Tag color={m.disabled ? "error" : "success"} style={{ marginInlineEnd: 0 }}>
                  {t(m.disabled ? "tenants.members.disabled" : "tenants.members.active")}
                </Tag>
              ),
            },
            {
              title: t("tenants.members.lastLogin"),
              render: (_, m) => fmt(m.lastLoginAt) ?? <Typography.Text type="secondary">{t("tenants.members.never")}</Typography.Text>,
            },
            { title: t("tenants.members.createdAt"), render: (_, m) => fmt(m.createdAt) },
            {
              title: t("tenants.members.actions"),
              fixed: "right",
              // The caller's own row: no way to lock themself out (nor a new password that signs them out).
              render: (_, m) =>
                m.id === me ? null : (
                  <Space size={0} style={{ whiteSpace: "nowrap" }}>
                    <Button
                      type="link"
                      size="small"
                      disabled={busy === m.id}
                      onClick={() =>
                        m.role === "admin"
                          ? change(m, { role: "member" }, "tenants.members.demoted")
                          : change(m, { role: "admin" }, "tenants.members.promoted")
                      }
                    >
                      {t(m.role === "admin" ? "tenants.members.demote" : "tenants.members.promote")}
                    </Button>
                    {m.disabled ? (
                      <Button
                        type="link"
                        size="small"
                        disabled={busy === m.id}
                        onClick={() => change(m, { disabled: false }, "tenants.members.started")}
                      >
                        {t("tenants.members.start")}
                      </Button>
                    ) : (
                      <Popconfirm
                        title={t("tenants.members.stopConfirm", { username: m.username })}
                        description={t("tenants.members.stopHint")}
                        okText={t("tenants.members.stop")}
                        okButtonProps={{ danger: true }}
                        onConfirm={() => change(m, { disabled: true }, "tenants.members.stopped")}
                      >
                        <Button type="link" size="small" danger disabled={busy === m.id}>
                          {t("tenants.members.stop")}
                        </Button>
                      </Popconfirm>
                    )}
                    <Button type="link" size="small" disabled={busy === m.id} onClick={() => setResetting(m)}>
                      {t("tenants.members.resetPassword")}
                    </Button>
                  </Space>
                ),
            },
          ]}
        />
      </Card>
      {adding && (
        <AddMemberDialog
          onClose={() => setAdding(false)}
          onAdded={(m) => {
            setAdding(false);
            message.success(t("tenants.members.added", { username: m.username }));
            // The newest member leads the first page of the whole list.
            setSearch("");
            setKeyword("");
            setPage(1);
            void queryClient.invalidateQueries({ queryKey: tenantMembersKey });
          }}
        />
      )}
      {resetting && (
        <ResetPasswordDialog
          member={resetting}
          onClose={() => setResetting(null)}
          onDone={(m) => {
            setResetting(null);
            message.success(t("tenants.members.reset", { username: m.username }));
          }}
        />
      )}
    </div>
  );
}
