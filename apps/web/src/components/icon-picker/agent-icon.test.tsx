import { BUILTIN_ICON_COUNT, ICON_BACKGROUNDS } from "@agentfair/contracts";
import { render, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AgentIcon } from "./agent-icon";
import { BUILTIN_ICON_LOADERS } from "./builtin-icon-loaders";
import { BUILTIN_ICONS } from "./builtin-icons";

describe("AgentIcon", () => {
  it("shows '#<id>' as the uploaded file, a number as a built-in icon, anything else as an emoji", async () => {
    const uploaded = render(<AgentIcon icon="#abc-123" background="#e8f3ff" />);
    expect(uploaded.container.querySelector("img")?.getAttribute("src")).toBe("/agent_api/api/files/data/abc-123");
    const builtin = render(<AgentIcon icon="12" background="#165dff" />);
    await waitFor(() => expect(builtin.container.querySelector("svg")).not.toBeNull());
    expect(builtin.container.querySelector("img")).toBeNull();
    const emoji = render(<AgentIcon icon="rocket" background="#fff7e8" />);
    expect(emoji.container.textContent).toBe("🚀");
  });

  it("draws the default icon (robot, or none) as antd's robot icon, not an emoji a machine may lack", () => {
    for (const icon of ["robot", ""]) {
      const r = render(<AgentIcon icon={icon} background="#e8f3ff" />);
      expect(r.container.querySelector("[data-icon=default] .anticon-robot svg")).not.toBeNull();
      expect(r.container.textContent).not.toContain("🤖");
      r.unmount();
    }
  });

  it("loads each built-in icon on its own, in the gallery's order", async () => {
    expect(BUILTIN_ICON_LOADERS).toHaveLength(BUILTIN_ICONS.length);
    const names = await Promise.all(BUILTIN_ICON_LOADERS.map(async (load) => (await load()).default.displayName));
    expect(names).toEqual(BUILTIN_ICONS.map((i) => i.displayName));
  });

  it("offers 55 built-in icons and 16 background presets", () => {
    expect(BUILTIN_ICONS).toHaveLength(BUILTIN_ICON_COUNT);
    expect(BUILTIN_ICON_COUNT).toBe(55);
    expect(ICON_BACKGROUNDS).toHaveLength(16);
  });
});
