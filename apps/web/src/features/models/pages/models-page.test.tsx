import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { App as AntApp } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../../i18n";
import { clearSession, setTokens } from "../../../lib/storage";
import { ModelsPage } from "./models-page";

const calls: string[] = [];
beforeEach(async () => {
  await i18n.changeLanguage("zh");
  setTokens({ token: "t", reportToken: "r" });
  calls.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      calls.push(String(url));
      const data = String(url).includes("findUserInfo") ? { id: "1", username: "u", nickName: "u", isAdmin: false } : [];
      return new Response(JSON.stringify({ code: 200, msg: "", data }), { status: 200, headers: { "content-type": "application/json" } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <ModelsPage />
      </AntApp>
    </QueryClientProvider>,
  );

describe("Model management", { timeout: 30_000 }, () => {
  it("shows 403 to a non-administrator, without the add button or a model list request", async () => {
    show();
    expect(await screen.findByText("没有权限")).toBeTruthy();
    expect(screen.queryByText("添加模型")).toBeNull();
    expect(calls.some((u) => u.endsWith("/api/models"))).toBe(false);
  });
});
