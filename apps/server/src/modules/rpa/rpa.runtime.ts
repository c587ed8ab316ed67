import { playContainer } from "@agentfair/contracts";
import { z } from "zod";
import type { ToolKind } from "../../runtime/tool-registry.ts";
import type { RpaService } from "./rpa.service.ts";

const args = z.object({ robotName: z.string().min(1).max(64), view: playContainer.exclude(["iframe"]).default("live") });

/**
 * The chat tool that starts a robot task and attaches its live stream or remote screen to the
 * reply's session: offered when the caller's tenant has robots; the page shows the panel on its
 * next playInfo poll.
 */
export function rpaToolKind(rpa: RpaService): ToolKind {
  return {
    kind: "rpa",
    async toolsFor(ctx) {
      const names = await rpa.robotNames(ctx.caller.tenantId);
      if (!names.length) return [];
      return [
        {
          name: "rpa_start_task",
          displayName: "RPA",
          description: "Start a task on an RPA robot and show the user its live video (view 'live') or its screen (view 'remote').",
          parameters: {
            type: "object",
            properties: { robotName: { type: "string", enum: names }, view: { type: "string", enum: ["live", "remote"] } },
            required: ["robotName"],
          },
          async execute(raw) {
            const parsed = args.safeParse(raw);
            if (!parsed.success) return { ok: false, error: "robotName is required" };
            const record = await rpa.startTaskByName(ctx.caller, ctx.sessionId, parsed.data.robotName, parsed.data.view);
            if (!record) return { ok: false, error: "no such robot" };
            return { ok: true, robotName: record.rpaRobot.robotName, view: record.playContainer };
          },
        },
      ];
    },
  };
}
