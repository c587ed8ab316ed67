import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import i18n from "../../i18n";
import { LivePlayer } from "./live-player";
import { levelOr, RemoteViewer } from "./remote-viewer";
import { TimedIframe } from "./timed-iframe";

beforeAll(async () => {
  await i18n.changeLanguage("zh");
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("remote viewer levels (doc 2 §5)", () => {
  it("accepts integers 0 to 9 and warns about and ignores anything else", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(levelOr(undefined, 6, "qualityLevel")).toBe(6);
    expect(levelOr(0, 6, "qualityLevel")).toBe(0);
    expect(levelOr(9, 2, "compressionLevel")).toBe(9);
    expect(warn).not.toHaveBeenCalled();
    for (const bad of [10, -1, 2.5, "3", null, Number.NaN]) expect(levelOr(bad, 2, "compressionLevel")).toBe(2);
    expect(warn).toHaveBeenCalledTimes(6);
  });

  it("toggles fullscreen with the bottom-right icon and leaves it on Escape", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const ticket = vi.fn(() => new Promise<string>(() => undefined));
    const { container } = render(<RemoteViewer url={ticket} />);
    const viewer = container.querySelector(".remote-viewer") as HTMLElement;
    expect(viewer.dataset.fullscreen).toBe("false");
    await act(async () => screen.getByRole("button", { name: "全屏" }).click());
    expect(viewer.dataset.fullscreen).toBe("true");
    expect(screen.getByRole("button", { name: "退出全屏" })).toBeTruthy();
    await act(async () => window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" })));
    expect(viewer.dataset.fullscreen).toBe("false");
  });
});

describe("live player (doc 2 §4, §8)", () => {
  it("says the browser cannot play live streams when Media Source Extensions are missing", () => {
    render(<LivePlayer flvUrl="/x.flv" />);
    expect(screen.getByRole("alert").textContent).toBe("您的浏览器不支持直播");
  });

  it("uses the spec's English texts", async () => {
    await act(() => i18n.changeLanguage("en"));
    render(<LivePlayer flvUrl="/x.flv" />);
    expect(screen.getByRole("alert").textContent).toBe("your browser does not support live streaming");
    expect(i18n.t("rpa.live.pullError")).toBe("live stream pull error, please refresh and retry");
    await act(() => i18n.changeLanguage("zh"));
  });
});

describe("timed-refresh iframe (doc 2 §9)", () => {
  it("reloads the page every 5 s", () => {
    vi.useFakeTimers();
    const { container } = render(<TimedIframe src="/healthz" title="t" />);
    const first = container.querySelector("iframe");
    act(() => vi.advanceTimersByTime(4999));
    expect(container.querySelector("iframe")).toBe(first);
    act(() => vi.advanceTimersByTime(1));
    expect(container.querySelector("iframe")).not.toBe(first);
    expect(container.querySelector("iframe")?.getAttribute("src")).toBe("/healthz");
  });
});
