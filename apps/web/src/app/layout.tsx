import { LogoutOutlined, UserOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Avatar, Button, Dropdown, Grid, Layout as AntLayout, Menu, Space, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation, useNavigate } from "react-router";
import { logout } from "../features/auth/api/logout";
import { useUserInfo } from "../features/auth/api/user-info";
import { useTenantInfo } from "../features/auth/api/tenant-info";
import { LanguageSwitch } from "../components/language-switch";
import { clearSession, getToken } from "../lib/storage";
import { tenantDisplayName, tenantDomain } from "../lib/tenant";
import { Footer } from "../features/auth/components/footer";
import { type NavItem, navItems, navLinks } from "./nav";
import { PageBoundary } from "./page-boundary";

export function Layout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useUserInfo();
  const tenant = useTenantInfo(tenantDomain());
  const nav = navItems(user.data);
  // On a phone the platform's name and the user's name would leave the menu no room, not even for
  // its "…" of the items that do not fit: the logo and the avatar stand for them there.
  const narrow = Grid.useBreakpoint().xs === true;
  // The role beside the name: an administrator is not "staff" whatever the nickname says.
  const role = user.data?.isAdmin ? t("common.roles.admin") : user.data?.isTenantAdmin ? t("common.roles.tenantAdmin") : null;
  const link = (n: NavItem) => ({ key: n.path, label: <Link to={n.path}>{t(n.label)}</Link> });
  const items = nav.map((n) => (n.children ? { key: n.path, label: t(n.label), children: n.children.map(link) } : link(n)));
  const selected = navLinks(nav)
    .map((n) => n.path)
    .filter((k) => location.pathname.startsWith(k));

  const signOut = async () => {
    await logout().catch(() => undefined);
    clearSession();
    queryClient.clear();
    navigate("/login", { replace: true });
  };

  // The tenant's colour comes from the app's theme (app.tsx), for the dialogs outside this layout too.
  return (
    <AntLayout style={{ minHeight: "100vh" }}>
      <AntLayout.Header
        style={{
          display: "flex",
          alignItems: "center",
          gap: narrow ? 8 : 24,
          background: "#fff",
          paddingInline: narrow ? 12 : 24,
          borderBottom: "1px solid #f0f0f0",
        }}
      >
        <Link
          to="/index"
          style={{ display: "flex", alignItems: "center", gap: 8, color: "inherit", fontWeight: 600, fontSize: 16, whiteSpace: "nowrap" }}
        >
          <img src={tenant.data?.logo || "/favicon.svg"} alt={narrow ? tenantDisplayName(tenant.data, t) : ""} width={28} height={28} />
          {!narrow && tenantDisplayName(tenant.data, t)}
        </Link>
        <Menu
          mode="horizontal"
          triggerSubMenuAction="click"
          selectedKeys={selected}
          items={items}
          style={{ flex: 1, borderBottom: "none", minWidth: 0 }}
        />
        <Space size="middle">
          <LanguageSwitch />
          {getToken() && user.data ? (
            <Dropdown
              menu={{
                items: [
                  { key: "order", label: t("common.userOrder"), onClick: () => navigate("/user-order") },
                  { key: "logout", icon: <LogoutOutlined />, label: t("common.logout"), onClick: signOut },
                ],
              }}
            >
              <Space style={{ cursor: "pointer" }} data-testid="user-menu">
                <Avatar size="small" icon={<UserOutlined />} />
                {!narrow && (user.data.nickname || user.data.username)}
                {!narrow && role && role !== user.data.nickname && (
                  <Tag color="blue" style={{ marginInlineEnd: 0 }} data-testid="user-role">
                    {role}
                  </Tag>
                )}
              </Space>
            </Dropdown>
          ) : (
            <Button type="primary" onClick={() => navigate("/login")}>
              {t("common.login")}
            </Button>
          )}
        </Space>
      </AntLayout.Header>
      <AntLayout.Content style={{ padding: 24 }}>
        <PageBoundary>
          <Outlet />
        </PageBoundary>
      </AntLayout.Content>
      <Footer />
    </AntLayout>
  );
}
