import { z } from "zod";

/** Chat robots (doc 2 §1 "chat robots for enterprise messaging", dictionary area Robot management; paths beyond the spec). */
export const chatRobotTypes = ["wecom", "dingtalk", "feishu", "webhook"] as const;
export const chatRobotType = z.enum(chatRobotTypes);
export type ChatRobotType = z.infer<typeof chatRobotType>;

/** The public base URLs each platform's APIs answer on; a robot may point elsewhere (private deployments, tests). */
export const ROBOT_DEFAULT_BASE_URL: Record<ChatRobotType, string> = {
  wecom: "https://qyapi.weixin.qq.com",
  dingtalk: "https://oapi.dingtalk.com",
  feishu: "https://open.feishu.cn",
  webhook: "",
};

/** The fields each platform needs: shown settings, and secrets stored sealed and never returned. */
export const ROBOT_FIELDS: Record<ChatRobotType, { settings: readonly string[]; secrets: readonly string[]; required: readonly string[] }> =
  {
    wecom: {
      settings: ["corpId", "appAgentId", "baseUrl"],
      secrets: ["corpSecret", "token", "encodingAesKey"],
      required: ["corpId", "appAgentId", "corpSecret", "token", "encodingAesKey"],
    },
    dingtalk: { settings: ["baseUrl"], secrets: ["appSecret"], required: ["appSecret"] },
    feishu: {
      settings: ["appId", "baseUrl"],
      secrets: ["appSecret", "verificationToken", "encryptKey"],
      required: ["appId", "appSecret", "verificationToken"],
    },
    webhook: { settings: ["replyUrl"], secrets: ["secret"], required: ["replyUrl", "secret"] },
  };

/** A robot's name is at most this long. */
export const ROBOT_NAME_MAX = 50;
/** How much of a robot's message the agent is asked (the chat input limit is in bytes, doc 2 §9). */
export const ROBOT_TEXT_MAX = 1500;

const urlPattern = /^https?:\/\/[^\s]+$/i;

export const robotInput = z
  .object({
    name: z.string().trim().min(1).max(ROBOT_NAME_MAX),
    type: chatRobotType,
    agentId: z.string().min(1).max(64),
    enabled: z.boolean().default(true),
    settings: z.record(z.string(), z.string().trim().max(500)).default({}),
    /** An empty or missing secret keeps the stored one on update. */
    secrets: z.record(z.string(), z.string().trim().max(500)).default({}),
  })
  .superRefine((v, ctx) => {
    const fields = ROBOT_FIELDS[v.type];
    for (const key of Object.keys(v.settings))
      if (!fields.settings.includes(key)) ctx.addIssue({ code: "custom", path: ["settings", key], message: "unknown field" });
    for (const key of Object.keys(v.secrets))
      if (!fields.secrets.includes(key)) ctx.addIssue({ code: "custom", path: ["secrets", key], message: "unknown field" });
    for (const key of ["baseUrl", "replyUrl"])
      if (v.settings[key] && !urlPattern.test(v.settings[key]))
        ctx.addIssue({ code: "custom", path: ["settings", key], message: "urlInvalid" });
    if (v.type === "wecom" && v.secrets.encodingAesKey && !/^[A-Za-z0-9+/]{43}$/.test(v.secrets.encodingAesKey))
      ctx.addIssue({ code: "custom", path: ["secrets", "encodingAesKey"], message: "encodingAesKeyInvalid" });
  });
export type RobotInput = z.input<typeof robotInput>;

export const chatRobot = z.object({
  id: z.string(),
  name: z.string(),
  type: chatRobotType,
  agentId: z.string(),
  agentName: z.string(),
  enabled: z.boolean(),
  settings: z.record(z.string(), z.string()),
  /** Which secrets are stored (their values are never returned). */
  secretsSet: z.array(z.string()),
  /** The path to paste into the platform as the callback (event) URL, on this platform's address. */
  callbackPath: z.string(),
  updatedAt: z.string(),
});
export type ChatRobot = z.infer<typeof chatRobot>;

export const robotEnabledInput = z.object({ enabled: z.boolean() });

/** The callback path of a robot (the platforms call it without a session; the robot's secrets prove them). */
export const robotCallbackPath = (id: string) => `/aiagent_api/robots/callback/${id}`;

/** A binding code is valid this long (beyond the spec). */
export const ROBOT_BIND_CODE_SECONDS = 600;
/** What a robot user sends to bind their platform account: "绑定 CODE" or "bind CODE". */
export const ROBOT_BIND_PATTERN = /^\s*(?:绑定|bind)\s+([A-Za-z0-9]{8})\s*$/i;
export const robotBindCode = z.object({ code: z.string(), expiresIn: z.number().int() });
export type RobotBindCode = z.infer<typeof robotBindCode>;
