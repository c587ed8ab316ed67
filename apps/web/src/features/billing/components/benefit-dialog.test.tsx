import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App as AntApp } from "antd";
import { beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../../i18n";
import { BenefitDialog } from "./benefit-dialog";

const calls: { url: string; body: unknown }[] = [];
let answer: { status: number; body: object } = { status: 200, body: { code: 200, msg: "", data: { grant: "AMOUNT" } } };

beforeEach(async () => {
  await i18n.changeLanguage("zh");
  calls.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "content-type": "application/json" } });
    }),
  );
});

const show = () =>
  render(
    <AntApp>
      <BenefitDialog open onClose={() => {}} />
    </AntApp>,
  );
const ok = () => fireEvent.click(screen.getByRole("button", { name: /确\s*定|OK/ }));

describe("the benefit-code dialog (doc 1 §5, §7)", { timeout: 30_000 }, () => {
  it("an empty code is refused before any call: 'please enter the invitation code!'", async () => {
    show();
    ok();
    expect(await screen.findByText("请输入邀请码！")).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it("a failure shows the server msg and clears the input", async () => {
    answer = { status: 400, body: { code: 400, msg: "权益码已被使用", data: null } };
    show();
    const input = screen.getByTestId("benefit-input") as HTMLInputElement;
    fireEvent.change(input, { target: { value: "ABCDEF" } });
    ok();
    expect(await screen.findByText("权益码已被使用")).toBeTruthy();
    await waitFor(() => expect(input.value).toBe(""));
    expect(calls[0]).toEqual({ url: "/agent_api/api/benefit/useCode", body: { benefitCode: "ABCDEF" } });
  });

  it("success shows 'benefit code entered successfully!'", async () => {
    answer = { status: 200, body: { code: 200, msg: "", data: { grant: "AMOUNT" } } };
    const reload = vi.fn();
    vi.stubGlobal("location", { ...window.location, reload });
    show();
    fireEvent.change(screen.getByTestId("benefit-input"), { target: { value: "GOOD" } });
    ok();
    expect(await screen.findByText("权益码使用成功！")).toBeTruthy();
  });
});
