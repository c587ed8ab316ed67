import { renderInApp } from "../../../test/render";
import { fireEvent, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../../i18n";
import { setTokens } from "../../../lib/storage";
import { MarketplacePage } from "./marketplace-page";

const card = {
  id: "a1",
  agentId: "a1",
  agentName: "公文写作助手",
  name: "公文写作助手",
  agentDescription: "起草通知",
  desc: "起草通知",
  agentIcon: "1",
  agentIconBackground: "#e8f3ff",
  price: 0,
  agentType: null,
  insightCategory: null,
  agentStatus: "C90_Released",
  launchTags: ["general"],
  launchVersion: 1,
  launchVersionDisabled: false,
  lastModifiedDate: "2026-06-01 00:00:00",
  copyByMe: false,
  labelId: null,
  taskNum: 3,
  skillNum: 0,
  copyable: false,
  mine: false,
  applyStatus: null,
  applyReason: null,
};
let failing = true;

beforeEach(async () => {
  await i18n.changeLanguage("zh");
  setTokens({ token: "t", reportToken: "r" });
  failing = true;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
      if (String(url).includes("/launch/page"))
        return failing
          ? json(500, { code: 500, msg: "服务器错误", data: null })
          : json(200, { code: 200, msg: "", data: { list: [card], total: 1, totalExact: true } });
      if (String(url).includes("schema_use_count")) return json(200, { code: 200, msg: "", data: [] });
      return json(200, { code: 200, msg: "", data: [] });
    }),
  );
});
const show = () => renderInApp(<MarketplacePage />);

describe("the marketplace", { timeout: 30_000 }, () => {
  it("says when its list could not be loaded, not a blank page, and loads it again on retry", async () => {
    show();
    expect(await screen.findByText("智能体列表加载失败")).toBeTruthy();
    expect(screen.queryByText("暂无数据")).toBeNull();
    failing = false;
    fireEvent.click(screen.getByRole("button", { name: /重\s*试/ }));
    expect(await screen.findByText("公文写作助手")).toBeTruthy();
    expect(screen.queryByText("智能体列表加载失败")).toBeNull();
  });
});
