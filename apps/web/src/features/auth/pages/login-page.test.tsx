import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { App as AntApp } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MemoryRouter } from "react-router";
import i18n from "../../../i18n";
import { LoginPage } from "./login-page";

const at = (path: string) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <AntApp>
          <LoginPage />
        </AntApp>
      </MemoryRouter>
    </QueryClientProvider>,
  );

beforeEach(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () =>
        new Response(JSON.stringify({ code: 200, msg: "", data: null }), { status: 200, headers: { "content-type": "application/json" } }),
    ),
  );
});
afterEach(() => i18n.changeLanguage("zh"));

describe("the login page reached from a share link", { timeout: 30_000 }, () => {
  it("says that signing in opens the shared conversation, in the language shown", async () => {
    await i18n.changeLanguage("en");
    at(`/login?redirect=${encodeURIComponent("/share-page#/?id=a&sessionId=b&shareToken=c")}`);
    expect((await screen.findByTestId("login-reason")).textContent).toBe("Log in to view the conversation shared with you");
  });

  it("says nothing of the kind on a plain sign-in or one back to another page", async () => {
    await i18n.changeLanguage("zh");
    const plain = at("/login");
    await screen.findByPlaceholderText("用户名 / 邮箱 / 手机号");
    expect(screen.queryByTestId("login-reason")).toBeNull();
    plain.unmount();
    at(`/login?redirect=${encodeURIComponent("/recharge")}`);
    await screen.findByPlaceholderText("用户名 / 邮箱 / 手机号");
    expect(screen.queryByTestId("login-reason")).toBeNull();
  });
});
