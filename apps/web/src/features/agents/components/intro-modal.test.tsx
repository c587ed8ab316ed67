import { renderInApp } from "../../../test/render";
import type { AgentCard } from "@agentfair/contracts";
import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import i18n from "../../../i18n";
import { IntroModal } from "./intro-modal";

const agent = {
  id: "a1",
  agentName: "公文写作助手",
  agentDescription: "",
  agentIcon: "1",
  agentIconBackground: "#e8f3ff",
  price: 0,
  agentStatus: "C10_Draft",
  applyStatus: null,
} as unknown as AgentCard;

afterEach(() => i18n.changeLanguage("zh"));

async function submitName(name: string) {
  renderInApp(<IntroModal agent={agent} mode="rename" onClose={() => {}} onSaved={() => {}} />);
  const input = await screen.findByTestId("intro-name");
  fireEvent.change(input, { target: { value: name } });
  fireEvent.click(screen.getByRole("button", { name: /OK|确\s*定/ }));
}

describe("the agent name's checks", () => {
  it("say what is wrong in Chinese (the spec's texts)", async () => {
    await submitName("   ");
    expect(await screen.findByText("名称不能为空")).toBeTruthy();
  });

  it("say it in English in the English UI, not in Chinese", async () => {
    await i18n.changeLanguage("en");
    await submitName("Travel planner with a long name");
    expect(await screen.findByText("At most 15 characters")).toBeTruthy();
    expect(screen.queryByText("输入内容不能超过15个字符")).toBeNull();
  });
});
