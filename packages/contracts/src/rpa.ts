import { z } from "zod";

/** RPA live list page size (doc 2 §7, §9). */
export const RPA_PAGE_SIZE = 15;
/** The chat asks for a session's playInfo this often (doc 2 §7, §9: live 3 s). */
export const PLAY_INFO_POLL_MS = 3_000;
/** A timed-refresh iframe panel reloads this often (doc 2 §9). */
export const IFRAME_REFRESH_MS = 5_000;
/** The live player shows its error when no media info arrives within this time (doc 2 §4, §9). */
export const LIVE_PLAYER_TIMEOUT_MS = 60_000;
/** Remote viewer defaults (doc 2 §9). */
export const REMOTE_DEFAULT_QUALITY = 6;
export const REMOTE_DEFAULT_COMPRESSION = 2;
/** livePolicy 1: the robot's stream is not in the live list (doc 2 §7: filter livePolicy not 1). */
export const LIVE_POLICY_HIDDEN = 1;
/** How long a VNC bridge ticket may wait to be used (beyond the spec). */
export const RPA_TICKET_SECONDS = 20;
/** How long a signed stream URL may wait to be opened (beyond the spec). */
export const RPA_STREAM_URL_SECONDS = 120;

export const playContainers = ["live", "remote", "iframe"] as const;
export const playContainer = z.enum(playContainers);
export type PlayContainer = z.infer<typeof playContainer>;

export const robotTypes = ["desktop", "browser", "server"] as const;
export const robotType = z.enum(robotTypes);

/** A robot as its managers see it: the VNC password itself is never returned. */
export const rpaRobot = z.object({
  id: z.string(),
  tenantId: z.string(),
  robotName: z.string(),
  robotType: robotType,
  vncHost: z.string(),
  vncPort: z.number().int(),
  hasVncPassword: z.boolean(),
  streamUrl: z.string(),
  livePolicy: z.number().int(),
  updatedAt: z.string(),
});
export type RpaRobot = z.infer<typeof rpaRobot>;

const hostPattern = /^[A-Za-z0-9.-]{1,253}$|^\[?[0-9A-Fa-f:.]{2,45}\]?$/;

export const rpaRobotInput = z.object({
  robotName: z.string().trim().min(1).max(64),
  robotType: robotType.default("desktop"),
  vncHost: z
    .string()
    .trim()
    .max(253)
    .refine((v) => v === "" || hostPattern.test(v), "invalid host"),
  vncPort: z.number().int().min(1).max(65535).default(5900),
  /** Empty keeps the stored password on update; `clearVncPassword` removes it. VNC auth uses 8 characters. */
  vncPassword: z.string().max(63).optional(),
  clearVncPassword: z.boolean().optional(),
  streamUrl: z
    .string()
    .trim()
    .max(1000)
    .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), "urlInvalid"),
  livePolicy: z.number().int().min(0).max(9).default(0),
});
export type RpaRobotInput = z.input<typeof rpaRobotInput>;

/**
 * Live record (doc 2 §3): playInfo is what the panel opens (a signed FLV URL for live, the
 * ticket address for a remote screen, the page for an iframe), playContainer which panel.
 */
export const liveRecord = z.object({
  playInfo: z.string(),
  playContainer: playContainer,
  playControls: z.boolean(),
  rpaRobot: z.object({ id: z.string(), robotName: z.string() }),
});
export type LiveRecord = z.infer<typeof liveRecord>;

/** RPA live list query (doc 2 §7): pageNo, pageSize 15. */
export const rpaLiveListQuery = z.object({
  pageNo: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(RPA_PAGE_SIZE),
});
export const rpaLiveList = z.object({ rows: z.array(liveRecord), total: z.number().int() });
export type RpaLiveList = z.infer<typeof rpaLiveList>;

export const playInfoQuery = z.object({ session_id: z.string().min(1).max(64) });
/** null when the session has no robot task. */
export const playInfoAnswer = liveRecord.nullable();

/** Start a robot task for a chat session and attach its live stream, remote screen or a page (beyond the spec). */
export const rpaTaskInput = z.object({
  sessionId: z.string().min(1).max(64),
  robotId: z.string().min(1).max(64),
  playContainer: playContainer.default("live"),
  iframeUrl: z
    .string()
    .trim()
    .max(1000)
    // A page of this platform (a path) or an http(s) address; the page's own policy decides whether it may be framed.
    .refine((v) => v === "" || /^\/(?!\/)\S*$/.test(v) || /^https?:\/\/[^\s]+$/i.test(v), "urlInvalid")
    .default(""),
});
export type RpaTaskInput = z.input<typeof rpaTaskInput>;

/** A VNC bridge ticket: the websocket path to open, valid RPA_TICKET_SECONDS, once. */
export const rpaTicket = z.object({ url: z.string(), expiresIn: z.number().int() });
export type RpaTicket = z.infer<typeof rpaTicket>;

/** Remote viewer quality and compression levels: integers 0 to 9 (doc 2 §5). */
export const isRemoteLevel = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 9;
