import { renderInApp } from "../../../test/render";
import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../../i18n";
import { setTokens } from "../../../lib/storage";
import { ModelsPage } from "./models-page";

const calls: string[] = [];
let me: Record<string, unknown>;
beforeEach(async () => {
  me = { id: "1", username: "u", nickName: "u", isAdmin: false, isTenantAdmin: false };
  // the table measures itself; jsdom has no ResizeObserver
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  await i18n.changeLanguage("zh");
  setTokens({ token: "t", reportToken: "r" });
  calls.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      calls.push(String(url));
      const data = String(url).includes("findUserInfo") ? me : [];
      return new Response(JSON.stringify({ code: 200, msg: "", data }), { status: 200, headers: { "content-type": "application/json" } });
    }),
  );
});
const show = () => renderInApp(<ModelsPage />);

describe("Model management", { timeout: 30_000 }, () => {
  it("shows 403 to a non-administrator, without the add button or a model list request", async () => {
    show();
    expect(await screen.findByText("没有权限")).toBeTruthy();
    expect(screen.queryByText("添加模型")).toBeNull();
    expect(calls.some((u) => u.endsWith("/api/models"))).toBe(false);
  });

  it("opens for a tenant administrator, with the tenant's subtitle and no private-address switch", async () => {
    me = { ...me, isTenantAdmin: true };
    show();
    expect(await screen.findByText(/配置本租户专用的模型服务/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /添加模型/ }));
    expect(await screen.findByText("设为默认")).toBeTruthy();
    expect(screen.queryByText("允许内网地址")).toBeNull();
    expect(screen.queryByText(/Ollama http:\/\/127\.0\.0\.1/)).toBeNull();
    expect(calls.some((u) => u.endsWith("/api/models"))).toBe(true);
  });

  it("offers the private-address switch to a platform administrator, and says a local model server needs it", async () => {
    me = { ...me, isAdmin: true };
    show();
    expect(await screen.findByText(/配置平台可用的模型服务/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /添加模型/ }));
    expect(await screen.findByText("允许内网地址")).toBeTruthy();
    expect(screen.getByText(/Ollama http:\/\/127\.0\.0\.1:11434\/v1.*需开启下方「允许内网地址」/)).toBeTruthy();
  });

  it("tells a tenant administrator with no models of its own that the platform's models are in use", async () => {
    me = { ...me, isTenantAdmin: true };
    show();
    expect(await screen.findByText(/本租户还没有自己的模型，目前使用平台的模型对话/)).toBeTruthy();
    expect(screen.queryByText(/添加一个模型后，智能体即可对话/)).toBeNull();
  });
});
