import { render, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AgentAvatar } from "./agent-avatar";

describe("AgentAvatar (chat header, messages, studio debug pane)", () => {
  it("shows the agent's icon, not the first letter of its name", async () => {
    const builtin = render(<AgentAvatar icon="12" background="#165dff" name="理财助手" />);
    // The built-in icon's code loads on first use.
    await waitFor(() => expect(builtin.container.querySelector("svg")).not.toBeNull());
    expect(builtin.container.textContent).not.toContain("理");
    expect(builtin.getByRole("img", { name: "理财助手" })).toBeTruthy();
    const uploaded = render(<AgentAvatar icon="#f-1" background="#fff" name="上传" />);
    expect(uploaded.container.querySelector("img")?.getAttribute("src")).toBe("/agent_api/api/files/data/f-1");
  });
});
