import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderInApp } from "../../../test/render";
import { settle, unhandledRejections } from "../../../test/unhandled";
import { CreateToolModal } from "./create-tool-modal";

const unhandled = unhandledRejections();
beforeEach(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () =>
        new Response(JSON.stringify({ code: 200, msg: "", data: [] }), { status: 200, headers: { "content-type": "application/json" } }),
    ),
  );
});

const fieldErrors = () => [...document.querySelectorAll(".ant-form-item-explain-error")].map((e) => e.textContent);

describe("the create tool modal", { timeout: 30_000 }, () => {
  it("submitted empty shows what is missing and leaves no unhandled rejection", async () => {
    renderInApp(<CreateToolModal open onClose={() => undefined} />);
    fireEvent.click(await screen.findByRole("button", { name: /确\s*定/ }));
    expect(await screen.findByText("请输入插件名称")).toBeTruthy();
    expect(fieldErrors()).toContain("请选择图标");
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("takes the picker's previewed default icon when 确定 is pressed without choosing one", async () => {
    renderInApp(<CreateToolModal open onClose={() => undefined} />);
    fireEvent.click(await screen.findByTestId("icon-picker-button"));
    const picker = (await screen.findByText("选择图标")).closest(".ant-modal") as HTMLElement;
    // the default is antd's robot icon (an emoji would be an empty box without an emoji font)
    expect(within(picker).getByTestId("agent-icon").querySelector(".anticon-robot")).not.toBeNull();
    // Without the app's ConfigProvider antd labels the picker's button in English.
    fireEvent.click(within(picker).getByRole("button", { name: "OK" }));
    await waitFor(() =>
      expect(within(screen.getByTestId("icon-picker-button")).getByTestId("agent-icon").querySelector(".anticon-robot")).not.toBeNull(),
    );
    fireEvent.click(screen.getAllByRole("button", { name: /确\s*定/ })[0]);
    expect(await screen.findByText("请输入插件名称")).toBeTruthy();
    expect(fieldErrors()).not.toContain("请选择图标");
  });
});
