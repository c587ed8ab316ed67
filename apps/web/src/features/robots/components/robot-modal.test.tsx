import type { ChatRobot, RobotInput } from "@agentfair/contracts";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App as AntApp } from "antd";
import { beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../../i18n";
import { RobotModal } from "./robot-modal";

beforeEach(async () => {
  await i18n.changeLanguage("zh");
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

const agents = [{ agentId: "a1", agentName: "客服助手" }];
const stored: ChatRobot = {
  id: "r1",
  name: "飞书客服",
  type: "feishu",
  agentId: "a1",
  agentName: "客服助手",
  enabled: true,
  settings: { appId: "cli_1" },
  secretsSet: ["appSecret", "verificationToken"],
  callbackPath: "/aiagent_api/robots/callback/r1",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

const show = (robot: ChatRobot | null, onSave: (id: string | null, body: RobotInput) => Promise<void>) =>
  render(
    <AntApp>
      <RobotModal open robot={robot} agents={agents} onSave={onSave} onClose={() => undefined} />
    </AntApp>,
  );
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe("the robot modal", { timeout: 30_000 }, () => {
  it("asks for each WeCom field and sends settings and secrets apart", async () => {
    const onSave = vi.fn(async () => undefined);
    show(null, onSave);
    expect(await screen.findByText(/企业微信管理后台/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /确\s*定/ }));
    // antd validates asynchronously: on a loaded machine the messages take longer than findBy's 1 s.
    expect(await screen.findByText("请填写企业ID（CorpID）", undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText("请填写EncodingAESKey")).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
    type("机器人名称", "企微客服");
    type("企业ID（CorpID）", "ww1");
    type("应用AgentId", "1000002");
    type("应用Secret", "s1");
    type("Token", "tk");
    type("EncodingAESKey", "k".repeat(43));
    fireEvent.click(screen.getByRole("button", { name: /确\s*定/ }));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    expect(onSave).toHaveBeenCalledWith(null, {
      name: "企微客服",
      type: "wecom",
      agentId: "a1",
      enabled: true,
      settings: { corpId: "ww1", appAgentId: "1000002" },
      secrets: { corpSecret: "s1", token: "tk", encodingAesKey: "k".repeat(43) },
    });
  });

  it("editing keeps stored secrets when left empty and shows the callback URL to copy", async () => {
    const onSave = vi.fn(async () => undefined);
    show(stored, onSave);
    expect(await screen.findByDisplayValue(`${window.location.origin}/aiagent_api/robots/callback/r1`)).toBeTruthy();
    expect(screen.getAllByPlaceholderText("已保存，留空则不修改")).toHaveLength(2);
    expect(screen.getByLabelText("Encrypt Key")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /确\s*定/ }));
    await waitFor(() => expect(onSave).toHaveBeenCalled());
    expect(onSave).toHaveBeenCalledWith("r1", expect.objectContaining({ type: "feishu", settings: { appId: "cli_1" }, secrets: {} }));
  });
});
