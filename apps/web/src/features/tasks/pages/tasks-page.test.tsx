import type { Task } from "@agentfair/contracts";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderInApp } from "../../../test/render";
import { settle, unhandledRejections } from "../../../test/unhandled";
import { TasksPage } from "./tasks-page";

const unhandled = unhandledRejections();
const task: Task = {
  id: "t1",
  name: "日报",
  targetType: "agent",
  targetId: "a1",
  targetName: "助手",
  prompt: "写日报",
  triggerType: "cron",
  cron: "0 9 * * 1",
  cycle: null,
  cycleTime: null,
  cycleWeekday: null,
  cycleMonthday: null,
  delivery: "in_app",
  email: "",
  robotId: "",
  robotName: "",
  robotRecipient: "",
  mailHost: "",
  mailPort: null,
  mailProtocol: null,
  mailAccount: "",
  mailPasswordSet: false,
  mailError: null,
  apiKeyPrefix: "",
  apiRequestsPerMinute: 60,
  enabled: true,
  nextRunAt: null,
  lastRunAt: null,
  lastStatus: null,
  createdAt: "2026-06-01T00:00:00Z",
};

/** The server of the page; saving answers as it does to a wrong cron expression. */
const saves: unknown[] = [];
beforeEach(() => {
  saves.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = String(url);
      const reply = (status: number, code: number, msg: string, data: unknown) =>
        new Response(JSON.stringify({ code, msg, data }), { status, headers: { "content-type": "application/json" } });
      if (init?.method === "PUT") {
        saves.push(JSON.parse(String(init.body)));
        return reply(400, 400, "cron表达式不正确", null);
      }
      if (u.endsWith("/task/page")) return reply(200, 200, "", { list: [task], total: 1 });
      if (u.includes("/task/targets")) return reply(200, 200, "", [{ id: "a1", name: "助手", type: "agent" }]);
      if (u.includes("/task/notices")) return reply(200, 200, "", { list: [], unread: 0 });
      if (u.includes("/task/cron-preview")) return reply(200, 200, "", { valid: false, next: [] });
      return reply(200, 200, "", []);
    }),
  );
});

describe("saving a scheduled task the server refuses", { timeout: 30_000 }, () => {
  it("keeps the editor open and leaves no unhandled rejection", async () => {
    renderInApp(<TasksPage />);
    fireEvent.click(await screen.findByRole("button", { name: "编辑任务" }));
    fireEvent.change(await screen.findByTestId("task-cron"), { target: { value: "not a cron" } });
    fireEvent.click(screen.getByTestId("task-save"));
    await waitFor(() => expect(saves).toHaveLength(1));
    await settle();
    expect(screen.getByTestId("task-cron")).toBeTruthy();
    expect(unhandled).toEqual([]);
  });
});
