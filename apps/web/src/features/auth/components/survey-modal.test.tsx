import { renderInApp } from "../../../test/render";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../../i18n";
import { setTokens } from "../../../lib/storage";
import { SurveyModal } from "./survey-modal";

let first = true;
/** The bodies of the calls that end the first login. */
let done: unknown[] = [];
beforeEach(async () => {
  await i18n.changeLanguage("zh");
  sessionStorage.clear();
  first = true;
  done = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (String(url).includes("/api/userinfo/firstLoginDone")) {
        done.push(JSON.parse(String(init?.body)));
        first = false;
      }
      return new Response(
        JSON.stringify({ code: 200, msg: "", data: String(url).includes("findIsFirstLogin") ? { isFirstLogin: first } : null }),
        {
          status: 200,
          headers: { "content-type": "application/json" },
        },
      );
    }),
  );
});

const show = () => renderInApp(<SurveyModal />);
const submit = () => fireEvent.click(screen.getByRole("button", { name: /提\s*交/ }));

describe("the usage-intent survey (doc 1 §5)", { timeout: 30_000 }, () => {
  it("opens on the first sign-in and offers two identities and 11 goal directions, the last 'other'", async () => {
    show();
    expect(await screen.findByText("使用意向调查问卷")).toBeTruthy();
    expect(screen.getAllByRole("radio")).toHaveLength(2);
    const goals = screen.getAllByRole("checkbox");
    expect(goals).toHaveLength(11);
    expect(screen.getByText("其他")).toBeTruthy();
  });

  it("requires the identity and a goal direction", async () => {
    show();
    await screen.findByText("使用意向调查问卷");
    submit();
    expect(await screen.findByText("请选择您的身份")).toBeTruthy();
    expect(await screen.findByText("请选择您的主要目标方向")).toBeTruthy();
  });

  it("requires the other text when 'other' is chosen, then closes on a valid answer", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    show();
    await screen.findByText("使用意向调查问卷");
    fireEvent.click(screen.getByRole("radio", { name: "开发者" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "其他" }));
    expect(await screen.findByPlaceholderText("请输入")).toBeTruthy();
    submit();
    expect(await screen.findByText("请输入")).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText("请输入"), { target: { value: "知识库问答" } });
    submit();
    await waitFor(() =>
      expect(info).toHaveBeenCalledWith("usage intent survey", { type: 2, directionalTarget: [11], other: "知识库问答" }),
    );
    // The server hears that it was answered, never the answers.
    await waitFor(() => expect(done).toEqual([{ survey: "answered" }]));
    await waitFor(() => expect(screen.queryByText("使用意向调查问卷")).toBeNull());
    info.mockRestore();
  });

  it("an explicit skip ends it on the server", async () => {
    show();
    await screen.findByText("使用意向调查问卷");
    fireEvent.click(screen.getByRole("button", { name: "跳过问卷" }));
    await waitFor(() => expect(done).toEqual([{ survey: "skipped" }]));
    await waitFor(() => expect(screen.queryByText("使用意向调查问卷")).toBeNull());
  });

  it("closing with × only puts it off until the next sign-in", async () => {
    show();
    await screen.findByText("使用意向调查问卷");
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByText("使用意向调查问卷")).toBeNull());
    expect(done).toEqual([]);
    cleanup();
    // The same sign-in (a reload): still put off.
    show();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText("使用意向调查问卷")).toBeNull();
    // A new sign-in shows it again.
    setTokens({ token: "t2", reportToken: "r2" });
    cleanup();
    show();
    expect(await screen.findByText("使用意向调查问卷")).toBeTruthy();
  });

  it("stays closed when it is not the first sign-in", async () => {
    first = false;
    show();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText("使用意向调查问卷")).toBeNull();
  });
});
