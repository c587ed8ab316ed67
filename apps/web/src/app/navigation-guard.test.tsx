import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { App as AntApp } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemoryRouter, RouterProvider } from "react-router";
import "../i18n";
import { configureHttp } from "../lib/http";
import { endSession, getToken, removeToken, setTokens, storage } from "../lib/storage";
import { NavigationGuard } from "./guards";

const member = {
  userId: "u1",
  tenantId: null,
  tenantDomain: "",
  username: "member",
  nickname: "旗舰会员",
  email: null,
  phone: null,
  isWhite: false,
  isAdmin: false,
  isHome: false,
  userMemberLevel: { memberLevel: "PER_FLAGSHIP_MONTHLY", endDate: null },
  userInfo: { accountBalance: 0 },
  groups: [],
  agentDeductFeeTemplates: { category: "PERSONAL", fees: 0 },
};

let userInfo: { status: number; body: unknown };
const calls: string[] = [];
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  calls.length = 0;
  userInfo = { status: 200, body: { code: 200, msg: "", data: member } };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      calls.push(url);
      if (url.includes("/platform/settings"))
        return json(200, {
          code: 200,
          msg: "",
          data: {
            captchaEnabled: false,
            rpaHost: "",
            enterpriseTenant: "",
            recordFiling: [],
            bankTransferEnabled: false,
          },
        });
      if (url.includes("getTenantInfo"))
        return json(200, {
          code: 200,
          msg: "",
          data: {
            tenantId: null,
            domain: "",
            name: "Agentfair",
            logo: "",
            primaryColor: "#1677ff",
            backgroundColor: "#fff",
            recordFiling: "",
          },
        });
      if (url.includes("findUserInfo")) return json(userInfo.status, userInfo.body);
      if (url.includes("findIsFirstLogin")) return json(200, { code: 200, msg: "", data: { isFirstLogin: false } });
      return json(404, { code: 404, msg: "not found", data: null });
    }),
  );
  configureHttp({ notifyError: () => {}, onTokenInvalid: endSession });
});
afterEach(() => {
  removeToken();
});

function start(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: <NavigationGuard />,
        children: [
          { path: "login", element: <div>login page</div>, handle: { public: true } },
          { path: "index", element: <div>index page</div> },
          { path: "home", element: <div>home page</div> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
  return { at: () => router.state.location.pathname + router.state.location.search, router };
}

describe("the navigation guard (doc 1 §2, §8)", () => {
  it("sends anonymous visitors to /login with a redirect back, and lets them see public pages", async () => {
    const app = start("/index?x=1");
    await waitFor(() => expect(app.at()).toBe("/login?redirect=%2Findex%3Fx%3D1"));
    expect(await screen.findByText("login page")).toBeTruthy();
    expect(calls.some((c) => c.includes("findUserInfo"))).toBe(false);
  });

  it("fetches the tenant branding before each navigation", async () => {
    const app = start("/login");
    await screen.findByText("login page");
    const before = calls.filter((c) => c.includes("getTenantInfo")).length;
    await act(() => app.router.navigate("/login?again=1"));
    await act(() => app.router.navigate("/index"));
    await waitFor(() => expect(calls.filter((c) => c.includes("getTenantInfo")).length).toBeGreaterThan(before));
  });

  it("sends a signed-in user on /login to /index, the home user to /home, or back to the redirect", async () => {
    setTokens({ token: "t", reportToken: "r" });
    let app = start("/login");
    await waitFor(() => expect(app.at()).toBe("/index"));
    cleanup();
    userInfo = { status: 200, body: { code: 200, msg: "", data: { ...member, username: "admin", isHome: true } } };
    app = start("/login");
    await waitFor(() => expect(app.at()).toBe("/home"));
    cleanup();
    userInfo = { status: 200, body: { code: 200, msg: "", data: member } };
    app = start("/login?redirect=%2Fhome");
    await waitFor(() => expect(app.at()).toBe("/home"));
  });

  it("keeps user info in local storage", async () => {
    setTokens({ token: "t", reportToken: "r" });
    start("/index");
    await screen.findByText("index page");
    await waitFor(() => expect(storage.user()?.username).toBe("member"));
  });

  it.each([500, 401])("removes the stored authorisation when user info fails with %i", async (status) => {
    setTokens({ token: "t", reportToken: "r" });
    userInfo = { status, body: { code: status, msg: "x", data: null } };
    const app = start("/index");
    await waitFor(() => expect(getToken() ?? "").toBe(""));
    await waitFor(() => expect(app.at()).toBe("/login?redirect=%2Findex"));
  });

  it("warns '用户信息已过期，请重新登录！' and clears storage when the session expired (403)", async () => {
    setTokens({ token: "t", reportToken: "r" });
    localStorage.setItem("userInfo", JSON.stringify(member));
    userInfo = { status: 403, body: { code: 403, msg: "token失效", data: null } };
    const app = start("/index");
    expect(await screen.findByText("用户信息已过期，请重新登录！")).toBeTruthy();
    await waitFor(() => expect(app.at()).toMatch(/^\/login/));
    expect(getToken() ?? "").toBe("");
    expect(localStorage.getItem("userInfo")).toBeNull();
  });

  it("warns and signs out when the user belongs to another tenant than the page", async () => {
    setTokens({ token: "t", reportToken: "r" });
    userInfo = { status: 200, body: { code: 200, msg: "", data: { ...member, tenantId: "x", tenantDomain: "acme" } } };
    const app = start("/index");
    expect(await screen.findByText("用户信息已过期，请重新登录！")).toBeTruthy();
    await waitFor(() => expect(app.at()).toMatch(/^\/login/));
    expect(getToken() ?? "").toBe("");
    expect(localStorage.getItem("userInfo")).toBeNull();
  });
});
