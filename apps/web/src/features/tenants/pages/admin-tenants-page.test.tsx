import type { AdminTenant } from "@agentfair/contracts";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { setTokens } from "../../../lib/storage";
import { renderInApp } from "../../../test/render";
import { settle, unhandledRejections } from "../../../test/unhandled";
import { AdminTenantsPage } from "./admin-tenants-page";

const unhandled = unhandledRejections();
const acme: AdminTenant = {
  id: "t-acme",
  domain: "acme",
  name: "Acme 智能科技",
  logo: "/tenant-logos/acme.svg",
  primaryColor: "#fa541c",
  backgroundColor: "#fff7e6",
  recordFiling: "",
  userCount: 3,
  openRegistration: true,
  admins: [{ userId: "u1", username: "acme", nickname: "Acme 管理员", disabled: false }],
};

const calls: { method: string; url: string; body?: unknown }[] = [];
let createReply: { status: number; msg: string; data: unknown };

beforeEach(() => {
  calls.length = 0;
  createReply = { status: 400, msg: "该域名为平台保留路径，请换一个", data: null };
  setTokens({ token: "t", reportToken: "r" });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = String(url);
      const method = init?.method ?? "GET";
      calls.push({ method, url: u, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const reply = (status: number, msg: string, data: unknown) =>
        new Response(JSON.stringify({ code: status, msg, data }), { status, headers: { "content-type": "application/json" } });
      if (u.includes("findUserInfo")) return reply(200, "", { userId: "admin", username: "admin", isAdmin: true });
      if (u.endsWith("/api/admin/tenants") && method === "POST") return reply(createReply.status, createReply.msg, createReply.data);
      if (u.endsWith("/api/admin/tenants")) return reply(200, "", [acme]);
      if (u.endsWith("/t-acme/registration")) return reply(200, "", { ...acme, openRegistration: JSON.parse(String(init?.body)).open });
      return reply(200, "", null);
    }),
  );
});

/** The page, and its new-tenant dialog with a domain and a name typed in. */
async function newTenantDialog(domain: string, name: string) {
  renderInApp(<AdminTenantsPage />);
  await screen.findByText("Acme 智能科技");
  fireEvent.click(screen.getByRole("button", { name: /新建租户/ }));
  const dialog = await screen.findByRole("dialog");
  fireEvent.change(within(dialog).getByLabelText("访问地址"), { target: { value: domain } });
  fireEvent.change(within(dialog).getByLabelText("租户名称"), { target: { value: name } });
  return dialog;
}

describe("tenants (platform administrators)", { timeout: 30_000 }, () => {
  it("creates a tenant: the server's refusal goes under the domain, the preview follows the name", async () => {
    const dialog = await newTenantDialog("admin", "新组织");
    await waitFor(() => expect(within(dialog).getByTestId("tenant-preview").textContent).toBe("新组织"));
    fireEvent.click(within(dialog).getByRole("button", { name: /创\s?建/ }));
    const error = await within(dialog).findByText("该域名为平台保留路径，请换一个");
    expect(error.closest(".ant-form-item")?.querySelector("#domain")).toBeTruthy();
    expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({
      domain: "admin",
      name: "新组织",
      primaryColor: "#1677ff",
      openRegistration: false,
    });
    // No first administrator unless a username is given; a username needs a password of 8.
    expect(calls.find((c) => c.method === "POST")?.body).not.toHaveProperty("admin");
    fireEvent.change(within(dialog).getByLabelText("管理员用户名"), { target: { value: "boss" } });
    fireEvent.click(within(dialog).getByRole("button", { name: /创\s?建/ }));
    expect(await within(dialog).findByText("密码至少 8 位")).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.method === "POST")).toHaveLength(1));
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("checks the first administrator's username before sending, and links each tenant's login page", async () => {
    renderInApp(<AdminTenantsPage />);
    await screen.findByText("Acme 智能科技");
    expect(screen.getByRole("link", { name: "/acme" }).getAttribute("href")).toBe("/acme/login");
    fireEvent.click(screen.getByRole("button", { name: /新建租户/ }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText("访问地址"), { target: { value: "xinghe" } });
    fireEvent.change(within(dialog).getByLabelText("租户名称"), { target: { value: "星河科技" } });
    fireEvent.change(within(dialog).getByLabelText("管理员用户名"), { target: { value: "x" } });
    fireEvent.change(within(dialog).getByLabelText("初始密码"), { target: { value: "first-pass-1" } });
    fireEvent.click(within(dialog).getByRole("button", { name: /创\s?建/ }));
    expect(await within(dialog).findByText("用户名为 2–32 位字母、数字、下划线或汉字")).toBeTruthy();
    await settle();
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);
    expect(unhandled).toEqual([]);
  });

  it("takes colours picked or typed as #rrggbb, shown in the preview", async () => {
    const dialog = await newTenantDialog("xinghe", "星河科技");
    fireEvent.change(within(dialog).getByLabelText("主题色"), { target: { value: " #D4380D " } });
    const [, background] = within(dialog).getAllByLabelText("选择颜色");
    fireEvent.input(background, { target: { value: "#e6f4ff" } });
    const preview = within(dialog).getByTestId("tenant-preview");
    await waitFor(() => expect(preview.style.background).toBe("rgb(230, 244, 255)"));
    expect(within(preview).getByText("星河科技").closest<HTMLElement>(".ant-typography")?.style.color).toBe("rgb(212, 56, 13)");
    fireEvent.click(within(dialog).getByRole("button", { name: /创\s?建/ }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === "POST")?.body).toMatchObject({ primaryColor: "#D4380D", backgroundColor: "#e6f4ff" }),
    );
    await settle();
  });

  it("checks a typed colour before sending", async () => {
    const dialog = await newTenantDialog("xinghe", "星河科技");
    fireEvent.change(within(dialog).getByLabelText("主题色"), { target: { value: "red" } });
    fireEvent.click(within(dialog).getByRole("button", { name: /创\s?建/ }));
    expect(await within(dialog).findByText("颜色格式应为 #RRGGBB")).toBeTruthy();
    await settle();
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);
  });

  it("says that a tenant's sign-ups were closed", async () => {
    renderInApp(<AdminTenantsPage />);
    const toggle = await screen.findByTestId("tenant-registration-acme");
    fireEvent.click(toggle);
    expect(await screen.findByText("「Acme 智能科技」已关闭注册，只有已有账号可以登录")).toBeTruthy();
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ open: false });
    await waitFor(() => expect(toggle.getAttribute("aria-checked")).toBe("false"));
  });

  it("shows a stopped administrator as stopped", async () => {
    acme.admins = [{ userId: "u1", username: "acme", nickname: "acme", disabled: true }];
    renderInApp(<AdminTenantsPage />);
    expect(await screen.findByText(/acme · 已停用/)).toBeTruthy();
  });
});
