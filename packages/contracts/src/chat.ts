import { z } from "zod";
import { MEMORY_SCOPES, MEMORY_VALUE_MAX } from "./agents.ts";
import { widgetData } from "./cards.ts";
import { insightStepItem } from "./insight.ts";
import { type CheckPluginItem, chatDoc, chatErrorCode, chatMedia, checkPluginItem, replyStatus, toolCallInfo } from "./chat-stream.ts";

/**
 * The tools a reply shows (its checkPluginsList): each once, in the order first called. Here rather
 * than beside the stream's schema, which the web loads with the first reply, not with the page.
 */
export function checkPluginsOf(calls: { plugin?: CheckPluginItem }[]): CheckPluginItem[] {
  const seen = new Map<string, CheckPluginItem>();
  for (const c of calls) if (c.plugin && !seen.has(c.plugin.id)) seen.set(c.plugin.id, c.plugin);
  return [...seen.values()];
}

/** Session page size (doc 2 §9). */
export const SESSION_PAGE_SIZE = 100;
/** Session name at most 15 characters (doc 2 §5). */
export const SESSION_TITLE_MAX = 15;
/** Input content max 1500 bytes (doc 2 §9). */
export const CHAT_INPUT_MAX_BYTES = 1500;
/** Suggested user questions per reply (doc 2 §9). */
export const FOLLOW_UP_COUNT = 3;
/** Usage heartbeat every 10 s (doc 2 §9). */
export const HEARTBEAT_SECONDS = 10;
/** Chat attachments: 15 MB each. */
export const CHAT_FILE_MAX_BYTES = 15 * 1024 * 1024;
/** Upload types of doc 2 §5. */
export const CHAT_UPLOAD_EXTENSIONS = [
  "jpeg",
  "jpg",
  "png",
  "doc",
  "docx",
  "xls",
  "xlsx",
  "pdf",
  "ppt",
  "pptx",
  "txt",
  "mp3",
  "wav",
  "zip",
] as const;
export const CHAT_UPLOAD_TYPES_MESSAGE = "请上传 image、word、excel、pdf、audio、zip 等类型文件";
/** Speech to text: 16 kHz audio, recording ends after 5000 ms of silence. */
export const SPEECH_SAMPLE_RATE = 16_000;
export const SPEECH_SILENCE_MS = 5_000;

export const chatFileRef = z.object({ id: z.string().max(64), name: z.string().max(255), type: z.string().max(100).optional() });
export type ChatFileRef = z.infer<typeof chatFileRef>;

/** POST /chat: the token identifies the caller (chat requests carry no bearer header). */
export const chatRequest = z.object({
  session_id: z.string().max(64).nullish(),
  query: z
    .string()
    .max(20_000)
    .refine((v) => new TextEncoder().encode(v).length <= CHAT_INPUT_MAX_BYTES, "chatInputTooLong"),
  token: z.string().max(500).optional(),
  schema_id: z.string().min(1).max(64),
  release: z.boolean().default(true),
  /** Ignored: the server uses the caller's own tenant. */
  tenantId: z.string().max(64).nullish(),
  files: z.array(chatFileRef).max(10).optional(),
  /** Retry of the last question: the previous reply is replaced instead of asking again. */
  reload: z.boolean().optional(),
});
export type ChatRequest = z.input<typeof chatRequest>;

export const sessionItem = z.object({
  session_id: z.string(),
  title: z.string(),
  create_time: z.string(),
  update_time: z.string(),
  schema_id: z.string(),
});
export type SessionItem = z.infer<typeof sessionItem>;

export const sessionListQuery = z.object({
  page_number: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(SESSION_PAGE_SIZE).default(SESSION_PAGE_SIZE),
  search: z.string().max(100).optional(),
  start_date: z.string().max(40).optional(),
  end_date: z.string().max(40).optional(),
  schema_id: z.string().max(64).optional(),
  /** Only the sessions with the released agent (true) or with the studio's draft (false); both when absent. */
  release: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional(),
});
export const sessionList = z.object({ list: z.array(sessionItem), total: z.number().int() });

/** Message (chat page, doc 2 §3): role user or bot. */
export const chatMessage = z.object({
  role: z.enum(["user", "bot"]),
  content: z.string(),
  uuid: z.string(),
  time: z.string(),
  media: z.array(chatMedia),
  docs: z.array(chatDoc),
  function_call: z.array(toolCallInfo.extend({ result: z.string().optional() })),
  /** The plugins, MCP tools and workflows the reply called (from function_call). */
  checkPluginsList: z.array(checkPluginItem).optional(),
  step: z.number().int(),
  /** A card, design or button row shown in the reply (cards.ts): the first of `widgetDataList`. */
  widgetData: widgetData.optional(),
  /** Every card of the reply, in the order its tools returned them. */
  widgetDataList: z.array(widgetData).optional(),
  questions: z.array(z.string()),
  status: replyStatus.nullable(),
  /** In the request's language; `error_code` says which, for a page in another language. */
  error: z.string().nullable(),
  error_code: chatErrorCode.nullable(),
  files: z.array(chatFileRef),
  /** A report agent's reply: the steps of its report (doc 2 §3 Message insightStep). */
  insightStep: z.array(insightStepItem).optional(),
  /** The asker's like or dislike of a reply. */
  feedback: z.enum(["like", "dislike"]).nullable().optional(),
});
export type ChatMessage = z.infer<typeof chatMessage>;

export const sessionDetail = sessionItem.extend({
  messages: z.array(chatMessage),
  readOnly: z.boolean(),
  /**
   * Beyond the spec: a reply of this session still being written (its asker left or lost the
   * connection); the page reads it through GET /chat_stream from the start.
   */
  replying: z.object({ uuid: z.string() }).optional(),
});
export type SessionDetail = z.infer<typeof sessionDetail>;

export const updateSessionTitleRequest = z.object({
  session_id: z.string().min(1).max(64),
  new_title: z.string().max(200),
});
export const deleteSessionRequest = z.object({ session_id: z.string().min(1).max(64) });
export const clearSessionRequest = deleteSessionRequest;
export const exportQuery = z.object({
  session_id: z.string().min(1).max(64),
  format: z.enum(["markdown", "json"]).default("markdown"),
  /** The reader's IANA time zone for the Markdown times. */
  tz: z.string().max(64).optional(),
});

export const shareTokenRequest = z.object({ session_id: z.string().min(1).max(64) });
export const shareTokenResponse = z.object({ shareToken: z.string(), session_id: z.string(), schema_id: z.string() });

export const heartbeatRequest = z.object({
  sessionId: z.string().max(64).nullish(),
  agentId: z.string().min(1).max(64),
  types: z.string().max(200).nullish(),
  tags: z.string().max(500).nullish(),
  categorys: z.string().max(500).nullish(),
});

/** The agent as the chat page shows it. */
export const chatAgentInfo = z.object({
  id: z.string(),
  agentName: z.string(),
  agentDescription: z.string(),
  agentIcon: z.string(),
  agentIconBackground: z.string(),
  price: z.number(),
  usageGuide: z.string(),
  chatOption: z.object({ prologue: z.string(), presetQuestions: z.array(z.string()) }),
  skills: z.array(z.string()),
  chatCount: z.number().int(),
  /** The caller's level may not run this priced agent: the page offers membership instead of sending. */
  membershipRequired: z.boolean(),
  /** This caller pays `price` per use (the first send after 5 idle minutes); the owner does not. */
  chargesPerUse: z.boolean(),
  /** The agent's owner can read this caller's conversations with it (a colleague's agent in an organisation): the page says so. */
  ownerReadsConversations: z.boolean(),
});
export type ChatAgentInfo = z.infer<typeof chatAgentInfo>;

export const uploadedFile = z.object({ id: z.string(), name: z.string(), presignedUrl: z.string(), type: z.string() });
export type UploadedFile = z.infer<typeof uploadedFile>;

export const transcription = z.object({ text: z.string() });

// ---- conversation details and tuning records (an agent's owner; paths beyond the spec) ----------

/** Time ranges of the conversation details (doc 2 §9: last 7, 15, 30 days). */
export const CONVERSATION_RANGES = [7, 15, 30] as const;
export const CONVERSATION_PAGE_SIZE = 20;
/** At most this many sessions go into one export. */
export const CONVERSATION_EXPORT_MAX = 5000;
export const MESSAGE_FEEDBACKS = ["like", "dislike"] as const;
export type MessageFeedback = (typeof MESSAGE_FEEDBACKS)[number];
export const TUNING_TEXT_MAX = 5000;

export const messageFeedbackRequest = z.object({
  message_id: z.string().min(1).max(64),
  /** null withdraws it. */
  feedback: z.enum(MESSAGE_FEEDBACKS).nullable(),
});

export const conversationQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((d) => (CONVERSATION_RANGES as readonly number[]).includes(d))
    .default(7),
  pageNo: z.coerce.number().int().min(1).default(1),
});

export const conversationItem = z.object({
  sessionId: z.string(),
  title: z.string(),
  /** Who talked: a platform user, a robot's guest or the owner through MCP or a task. */
  username: z.string(),
  nickname: z.string(),
  release: z.boolean(),
  messages: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  likes: z.number(),
  dislikes: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ConversationItem = z.infer<typeof conversationItem>;
export const conversationPage = z.object({ list: z.array(conversationItem), total: z.number() });

export const conversationMessage = z.object({
  id: z.string(),
  role: z.enum(["user", "bot"]),
  content: z.string(),
  status: z.string().nullable(),
  error: z.string().nullable(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  feedback: z.enum(MESSAGE_FEEDBACKS).nullable(),
  tuningId: z.string().nullable(),
  createdAt: z.string(),
});
export type ConversationMessage = z.infer<typeof conversationMessage>;
export const conversationDetail = conversationItem.extend({ list: z.array(conversationMessage) });

export const tuningInput = z.object({
  messageId: z.string().min(1).max(64),
  note: z.string().max(TUNING_TEXT_MAX).default(""),
  correctedAnswer: z.string().max(TUNING_TEXT_MAX).default(""),
});
export const tuningRecord = z.object({
  id: z.string(),
  sessionId: z.string(),
  messageId: z.string(),
  question: z.string(),
  answer: z.string(),
  correctedAnswer: z.string(),
  note: z.string(),
  knowledgeId: z.string().nullable(),
  pushedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type TuningRecord = z.infer<typeof tuningRecord>;
export const tuningPushRequest = z.object({ knowledgeId: z.string().min(1).max(64) });

/**
 * Beyond the spec: a reply's events again, from any process (a reconnect, a reopened session).
 * `after`: how many of its events the reader already has; the answer is the rest, as the chat stream.
 */
export const chatStreamQuery = z.object({
  uuid: z.string().min(1).max(64),
  after: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
/** Beyond the spec: stops a reply wherever it runs (the stop button; closing the request no longer stops it). */
export const stopReplyRequest = z.object({ uuid: z.string().min(1).max(64) });

/** Beyond the spec: an agent's memory variables with the caller's values (doc 2 dictionary: custom memory variable). */
export const memoryQuery = z.object({
  schema_id: z.string().min(1).max(64),
  release: z.enum(["true", "false"]).default("true"),
  session_id: z.string().min(1).max(64).optional(),
});
export const memoryItem = z.object({
  name: z.string(),
  description: z.string(),
  default: z.string(),
  scope: z.enum(MEMORY_SCOPES),
  value: z.string(),
  /** When the value was last written (null: it is the default). */
  updatedAt: z.string().nullable(),
});
export type MemoryItem = z.infer<typeof memoryItem>;
export const memoryList = z.object({ list: z.array(memoryItem) });
export const setMemoryRequest = z.object({
  schema_id: z.string().min(1).max(64),
  release: z.boolean().default(true),
  session_id: z.string().min(1).max(64).nullish(),
  name: z.string().min(1).max(64),
  value: z.string().max(MEMORY_VALUE_MAX),
});
/** Without `name`: every variable back to its default. */
export const resetMemoryRequest = setMemoryRequest.omit({ value: true }).extend({ name: z.string().min(1).max(64).optional() });
