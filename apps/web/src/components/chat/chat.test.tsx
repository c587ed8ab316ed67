import { parseChatEvent } from "@agentfair/contracts";
import dayjs from "dayjs";
import { describe, expect, it, vi } from "vitest";
import { sessionGroup } from "../../features/chat/components/session-sidebar";
import { createBus, type ChatBusEvents } from "./event-bus";
import { messageType } from "./message-body";
import type { UiMessage } from "./use-chat";
import { botMessage } from "../../test/messages";

const msg = (over: Partial<UiMessage>) => botMessage({ uuid: "1", ...over });

describe("chat event bus", () => {
  it("delivers typed events and unsubscribes", () => {
    const bus = createBus<ChatBusEvents>();
    const seen = vi.fn();
    const off = bus.on("send-msg-button", seen);
    bus.emit("send-msg-button", { text: "推荐问题" });
    off();
    bus.emit("send-msg-button", { text: "again" });
    expect(seen).toHaveBeenCalledTimes(1);
    expect(seen).toHaveBeenCalledWith({ text: "推荐问题" });
  });
});

describe("message types", () => {
  it("chooses collapse, json, tool, menu, audio or plain", () => {
    expect(messageType(msg({ content: JSON.stringify([{ title: "a", content: "b" }]) }))).toBe("collapse");
    expect(messageType(msg({ content: '{"a":1}' }))).toBe("json");
    expect(messageType(msg({ content: '{"a":1}', writable: true }))).toBe("plain");
    expect(messageType(msg({ toolCalls: [{ id: "c", function: { name: "f", arguments: "{}" }, metaInfo: { name: "F" } }] }))).toBe("tool");
    expect(messageType(msg({ widgetData: { options: [{ label: "是" }] } }))).toBe("menu");
    expect(messageType(msg({ audio: { url: "blob:x" } }))).toBe("audio");
    expect(messageType(msg({ content: "# 标题" }))).toBe("plain");
  });
});

describe("session groups", () => {
  it("groups by today, yesterday, 7 days and more", () => {
    const now = dayjs("2026-06-15T12:00:00");
    expect(sessionGroup("2026-06-15T08:00:00", now)).toBe("today");
    expect(sessionGroup("2026-06-14T23:00:00", now)).toBe("yesterday");
    expect(sessionGroup("2026-06-10T08:00:00", now)).toBe("week");
    expect(sessionGroup("2026-05-01T08:00:00", now)).toBe("more");
  });
});

describe("stream lines", () => {
  it("parses known events and skips broken lines", () => {
    expect(parseChatEvent('{"type":"content","delta":"你"}')).toEqual({ type: "content", delta: "你" });
    expect(parseChatEvent("{broken")).toBeNull();
    expect(parseChatEvent('{"type":"unknown"}')).toBeNull();
    expect(parseChatEvent('{"type":"progress","stage":6,"percent":99}')).toBeNull();
  });
});
