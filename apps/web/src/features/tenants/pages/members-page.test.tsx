import type { TenantMember } from "@agentfair/contracts";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { setTokens } from "../../../lib/storage";
import { renderInApp } from "../../../test/render";
import { settle, unhandledRejections } from "../../../test/unhandled";
import { MembersPage } from "./members-page";

const unhandled = unhandledRejections();
const member = (over: Partial<TenantMember>): TenantMember => ({
  id: "m",
  username: "m",
  nickname: "m",
  email: null,
  phone: null,
  role: "member",
  disabled: false,
  lastLoginAt: null,
  createdAt: "2026-06-01T08:00:00Z",
  ...over,
});
const carol = member({ id: "u-carol", username: "carol", nickname: "Carol 陈", email: "carol@acme.local", role: "admin" });
const dave = member({ id: "u-dave", username: "dave", phone: "13800000001", lastLoginAt: "2026-06-02T09:30:00Z" });
const erin = member({ id: "u-erin", username: "erin", disabled: true });

let me: Record<string, unknown>;
/** The requests the page made: method, url and body. */
const calls: { method: string; url: string; body?: unknown }[] = [];
/** The server's answer to an add: as it answers a username already taken in the tenant. */
let addReply: { status: number; msg: string };

beforeEach(() => {
  me = { userId: "u-carol", username: "carol", nickname: "Carol 陈", tenantDomain: "acme", isAdmin: false, isTenantAdmin: true };
  addReply = { status: 409, msg: "用户名已存在" };
  calls.length = 0;
  setTokens({ token: "t", reportToken: "r" });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = String(url);
      const method = init?.method ?? "GET";
      calls.push({ method, url: u, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const reply = (status: number, msg: string, data: unknown) =>
        new Response(JSON.stringify({ code: status, msg, data }), { status, headers: { "content-type": "application/json" } });
      if (u.includes("findUserInfo")) return reply(200, "", me);
      if (u.includes("/api/tenant/members") && method === "POST") return reply(addReply.status, addReply.msg, null);
      if (u.includes("/api/tenant/members")) {
        const keyword = new URL(u, "http://x").searchParams.get("keyword");
        const list = keyword ? [] : [carol, dave, erin];
        return reply(200, "", { list, total: list.length });
      }
      return reply(200, "", []);
    }),
  );
});

const rowOf = async (username: string) => (await screen.findByText(username)).closest("tr") as HTMLElement;

describe("tenant members", { timeout: 30_000 }, () => {
  it("lists the members with role, status and sign-in, and offers no stop or demotion on the caller's own row", async () => {
    renderInApp(<MembersPage />);
    const own = await rowOf("carol");
    expect(within(own).getByText("Carol 陈")).toBeTruthy();
    expect(within(own).getByText("我")).toBeTruthy();
    expect(within(own).getByText("管理员")).toBeTruthy();
    expect(within(own).queryByRole("button", { name: /停\s?用/ })).toBeNull();
    expect(within(own).queryByRole("button", { name: "取消管理员" })).toBeNull();

    const other = await rowOf("dave");
    expect(within(other).getByText("13800000001")).toBeTruthy();
    expect(within(other).getByText("成员")).toBeTruthy();
    expect(within(other).getByText("正常")).toBeTruthy();
    expect(within(other).getByRole("button", { name: /停\s?用/ })).toBeTruthy();
    expect(within(other).getByRole("button", { name: "设为管理员" })).toBeTruthy();
    expect(within(other).getByRole("button", { name: "重置密码" })).toBeTruthy();

    const stopped = await rowOf("erin");
    expect(within(stopped).getByText("已停用")).toBeTruthy();
    expect(within(stopped).getByText("从未登录")).toBeTruthy();
    expect(within(stopped).getByRole("button", { name: /启\s?用/ })).toBeTruthy();
    // The subtitle gives the organisation's login page.
    expect(screen.getByText(/\/acme\/login/)).toBeTruthy();
  });

  it("says when a search matches no member", async () => {
    renderInApp(<MembersPage />);
    await rowOf("dave");
    const search = screen.getByPlaceholderText("搜索用户名、昵称、邮箱或手机号");
    fireEvent.change(search, { target: { value: "nobody" } });
    fireEvent.keyDown(search, { key: "Enter", code: "Enter", keyCode: 13 });
    expect(await screen.findByText("没有找到匹配的成员")).toBeTruthy();
    expect(calls.some((c) => c.url.includes("keyword=nobody"))).toBe(true);
  });

  it("shows the server's refusal of a new member under the field it is about, and keeps the dialog open", async () => {
    renderInApp(<MembersPage />);
    await rowOf("dave");
    fireEvent.click(screen.getByRole("button", { name: /添加成员/ }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText("用户名"), { target: { value: "dave" } });
    fireEvent.change(within(dialog).getByLabelText("初始密码"), { target: { value: "first-pass-1" } });
    fireEvent.click(within(dialog).getByRole("button", { name: /确\s?定|OK/ }));
    const error = await within(dialog).findByText("用户名已存在");
    // Under the username, not a toast.
    expect(error.closest(".ant-form-item")?.querySelector("#username")).toBeTruthy();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ username: "dave", password: "first-pass-1", role: "member" });

    // A taken e-mail goes under the contact field.
    addReply = { status: 409, msg: "该邮箱或手机号已注册" };
    fireEvent.change(within(dialog).getByLabelText("用户名"), { target: { value: "frank" } });
    await waitFor(() => expect(within(dialog).queryByText("用户名已存在")).toBeNull());
    fireEvent.change(within(dialog).getByLabelText("邮箱或手机号"), { target: { value: "dave@acme.local" } });
    fireEvent.click(within(dialog).getByRole("checkbox"));
    fireEvent.click(within(dialog).getByRole("button", { name: /确\s?定|OK/ }));
    const taken = await within(dialog).findByText("该邮箱或手机号已注册");
    expect(taken.closest(".ant-form-item")?.querySelector("#contact")).toBeTruthy();
    expect(calls.filter((c) => c.method === "POST").at(-1)?.body).toEqual({
      username: "frank",
      contact: "dave@acme.local",
      password: "first-pass-1",
      role: "admin",
    });
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("checks the form before asking the server", async () => {
    renderInApp(<MembersPage />);
    await rowOf("dave");
    fireEvent.click(screen.getByRole("button", { name: /添加成员/ }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText("用户名"), { target: { value: "has space" } });
    fireEvent.change(within(dialog).getByLabelText("邮箱或手机号"), { target: { value: "dave@nowhere" } });
    fireEvent.change(within(dialog).getByLabelText("初始密码"), { target: { value: "short" } });
    fireEvent.click(within(dialog).getByRole("button", { name: /确\s?定|OK/ }));
    expect(await within(dialog).findByText("用户名为 2–32 位字母、数字、下划线或汉字")).toBeTruthy();
    expect(within(dialog).getByText("请输入正确的邮箱或手机号")).toBeTruthy();
    expect(within(dialog).getByText("密码至少 8 位")).toBeTruthy();
    expect(calls.some((c) => c.method === "POST")).toBe(false);
  });

  it("shows 403 to a member who administers nothing, without asking for the list", async () => {
    me = { ...me, isTenantAdmin: false };
    renderInApp(<MembersPage />);
    expect(await screen.findByText("没有权限")).toBeTruthy();
    expect(calls.some((c) => c.url.includes("/api/tenant/members"))).toBe(false);
  });
});
