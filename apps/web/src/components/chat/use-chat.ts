import {
  type ChatErrorCode,
  type ChatEvent,
  type ChatEventOf,
  type ChatFileRef,
  type ChatMedia,
  type ChatMessage,
  type CheckPluginItem,
  checkPluginsOf,
  type InsightStepItem,
  type ReplyStatus,
  type ToolCallInfo,
} from "@agentfair/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { ChatRequestError, resumeChat, stopReply, streamChat } from "./api/chat-stream";

export type MessageType = "audio" | "tool" | "collapse" | "menu" | "json" | "plain";
export type UiToolCall = ToolCallInfo & { result?: string; done?: boolean; error?: boolean };
export type WorkflowNodeStep = Omit<ChatEventOf<"workflow_node">, "type">;

/** A message as the chat view renders it (doc 2 §3 "Message (rendering)"). */
export interface UiMessage {
  uuid: string;
  /** 1 user, 2 bot */
  role: 1 | 2;
  type?: MessageType;
  content: string;
  loading?: boolean;
  /** Still streaming. */
  writable?: boolean;
  /** Progress step 0–4; undefined shows "thinking". */
  stepNum?: number;
  processLoading?: number;
  toolCalls: UiToolCall[];
  /** The plugins, MCP tools and workflows the reply called (doc 2 §3 "checkPluginsList"). */
  checkPluginsList?: CheckPluginItem[];
  question: string[];
  /** A message for people: the server's text, or worded here from `errorCode`. */
  error?: string;
  errorCode?: ChatErrorCode | null;
  status?: ReplyStatus | null;
  files: ChatFileRef[];
  media: ChatMedia[];
  docs: { title: string; content: string; url?: string }[];
  /** The spec's single card (older messages, menus); `widgetDataList` holds all of a reply's cards. */
  widgetData?: unknown;
  /** Nodes of the workflows the reply ran, as they went (the chat's progress steps of a workflow tool). */
  workflowNodes?: WorkflowNodeStep[];
  /** Every card of the reply, in the order its tools returned them. */
  widgetDataList?: unknown[];
  audio?: { url: string; duration?: number };
  hideCopy?: boolean;
  /** The asker's like or dislike of a reply. */
  feedback?: "like" | "dislike" | null;
  /** A report agent's reply: the report's generation steps, followed by polling its session (when it is the reader's). */
  insight?: { sessionId?: string; insightStep: InsightStepItem[] };
}

/** A stored message as the page shows it; `sessionId` lets a report agent's reply follow its report again. */
export const fromServer = (m: ChatMessage, sessionId?: string): UiMessage => ({
  uuid: m.uuid,
  feedback: m.feedback ?? null,
  role: m.role === "user" ? 1 : 2,
  content: m.content,
  stepNum: m.role === "bot" ? Math.max(0, Math.min(4, m.step - 1)) : undefined,
  processLoading: m.status === "done" ? 100 : undefined,
  toolCalls: m.function_call.map((c) => ({ ...c, done: true })),
  checkPluginsList: m.checkPluginsList ?? checkPluginsOf(m.function_call),
  question: m.questions,
  error: m.error ?? undefined,
  errorCode: m.error_code,
  status: m.status,
  files: m.files,
  media: m.media,
  docs: m.docs,
  widgetData: m.widgetData,
  ...(m.insightStep?.length ? { insight: { sessionId, insightStep: m.insightStep } } : {}),
  widgetDataList: m.widgetDataList,
});

const localId = () => `local-${Math.random().toString(36).slice(2)}`;

/** A reply this page follows: its request, and its id once the session event named it. */
interface Stream {
  controller: AbortController;
  uuid: string | null;
  stopAsked: boolean;
}

/** Reads of a broken reply again: tries, and the wait that grows between them. */
const RESUME_TRIES = 4;
const RESUME_WAIT_MS = 500;

/** The stop button: the server stops the reply and ends its stream as stopped; if it cannot be asked, the page stops reading. */
async function askStop(stream: Stream) {
  if (!stream.uuid) return;
  try {
    await stopReply(stream.uuid);
  } catch {
    stream.controller.abort();
  }
}

const placeholder = (uuid: string): UiMessage => ({
  uuid,
  role: 2,
  content: "",
  loading: true,
  writable: true,
  toolCalls: [],
  question: [],
  files: [],
  media: [],
  docs: [],
  processLoading: 0,
});

/** At most how often a streaming reply's text grows on screen, ms. */
const CONTENT_EVERY_MS = 50;

/** The key of a session the first send has not created yet. */
const NEW = "";

export interface UseChatOptions {
  agentId: string;
  release: boolean;
  /** The session on screen: what is shown, and where a send goes. */
  sessionId: string | null;
  /** Its messages as loaded from the server; undefined while loading. */
  history?: UiMessage[];
  /** A reply of the session the server is still writing (its uuid): followed when the session is shown. */
  replying?: string;
  /** A send created a session (or its title became known): `sessionId` may now follow it. */
  onSession?: (sessionId: string, title: string, created: boolean) => void;
  /** A reply ended (done, stopped or failed) in this session. */
  onFinish?: (status: ReplyStatus, sessionId: string | null) => void;
  requestErrorText: string;
  onRequestError?: (msg: string) => void;
  /** Words a refused request's message for people (the server's text, unless it is a validation detail). */
  describeRequestError?: (err: unknown) => string;
}

/**
 * The chat state machine: user message, placeholder reply, streamed events, a stop event finalises.
 * Each reply belongs to the session it was sent in: its messages are kept under that session
 * while it streams, so switching sessions shows (and sends to) the session on screen, and coming
 * back shows the reply still arriving.
 */
export function useChat(opts: UseChatOptions) {
  /** Messages this page holds for a session: one that streams, or streamed while on screen. */
  const [local, setLocal] = useState<Record<string, UiMessage[]>>({});
  /** Sessions with a reply under way, by key. */
  const [streaming, setStreaming] = useState<string[]>([]);
  const streams = useRef(new Map<string, Stream>());
  /** Replies this page already follows after a reopen (each is followed once). */
  const attached = useRef(new Set<string>());
  const optsRef = useRef(opts);
  optsRef.current = opts;
  const view = opts.sessionId ?? NEW;

  // Leaving a session forgets the local copies of the others that no longer stream: the server's
  // history is the truth when they are opened again. (A reply that ended off screen keeps its copy
  // until then: it is complete, and the page may not have followed its new session yet.)
  useEffect(() => {
    setLocal((all) => {
      const kept = Object.fromEntries(Object.entries(all).filter(([key]) => key === view || streams.current.has(key)));
      return Object.keys(kept).length === Object.keys(all).length ? all : kept;
    });
  }, [view]);
  useEffect(
    () => () => {
      // Leaving the page closes the connections; the replies go on and are saved on the server.
      for (const s of streams.current.values()) s.controller.abort();
    },
    [],
  );

  const messages = local[view] ?? opts.history ?? [];

  const setMessages = useCallback((list: UiMessage[]) => {
    const key = optsRef.current.sessionId ?? NEW;
    setLocal((all) => ({ ...all, [key]: list }));
  }, []);

  /**
   * Follows one reply into the session `key` until its stop event: the request given (a send), and
   * after a dropped connection the reply's stream again from where it broke (it goes on on the
   * server, and any process can read it). `userId`: the question's local id, renamed by the session event.
   */
  const follow = useCallback(
    async (
      startKey: string,
      startBotId: string,
      userId: string | null,
      request: (signal: AbortSignal, onEvent: (e: ChatEvent) => void) => Promise<void>,
    ) => {
      let key = startKey;
      let botId = startBotId;
      const controller = new AbortController();
      const stream: Stream = { controller, uuid: startBotId.startsWith("local-") ? null : startBotId, stopAsked: false };
      streams.current.set(key, stream);
      setStreaming([...streams.current.keys()]);
      const patch = (uuid: string, fn: (m: UiMessage) => UiMessage) =>
        setLocal((all) => (all[key] ? { ...all, [key]: all[key].map((m) => (m.uuid === uuid ? fn(m) : m)) } : all));
      let status: ReplyStatus = "failed";
      let stopped = false;
      /** Events read so far: where a resumed read goes on. */
      let seen = 0;
      // Text pieces show at most every CONTENT_EVERY_MS (the first at once): a fast model's pieces
      // come every few milliseconds, and each shown one re-renders and lays out the reply.
      let unshown = "";
      let shownAt = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const showContent = () => {
        clearTimeout(timer);
        timer = undefined;
        if (!unshown) return;
        shownAt = performance.now();
        const delta = unshown;
        unshown = "";
        patch(botId, (m) => ({ ...m, loading: false, content: m.content + delta }));
      };
      const onEvent = (e: ChatEvent) => {
        seen++;
        if (e.type === "content") {
          unshown += e.delta;
          const wait = shownAt + CONTENT_EVERY_MS - performance.now();
          if (wait <= 0) showContent();
          else timer ??= setTimeout(showContent, wait);
          return;
        }
        // Every other event comes after the text before it.
        showContent();
        switch (e.type) {
          case "session": {
            if (stream.uuid) break;
            const old = botId;
            botId = e.uuid;
            stream.uuid = e.uuid;
            if (stream.stopAsked) void askStop(stream);
            const created = key === NEW;
            if (created) {
              // The new session's messages and stream move under its id.
              streams.current.delete(NEW);
              streams.current.set(e.session_id, stream);
              setStreaming([...streams.current.keys()]);
              setLocal(({ [NEW]: list = [], ...rest }) => ({ ...rest, [e.session_id]: list }));
              key = e.session_id;
            }
            patch(old, (m) => ({ ...m, uuid: e.uuid }));
            if (userId) patch(userId, (m) => ({ ...m, uuid: e.question_uuid }));
            optsRef.current.onSession?.(e.session_id, e.title, created);
            break;
          }
          case "progress":
            patch(botId, (m) => ({ ...m, stepNum: e.stage - 1, processLoading: e.percent }));
            break;
          case "tool_call_start":
            patch(botId, (m) => {
              const toolCalls = [...m.toolCalls, { ...e.toolCall }];
              return { ...m, loading: false, type: "tool", toolCalls, checkPluginsList: checkPluginsOf(toolCalls) };
            });
            break;
          case "tool_call_end":
            patch(botId, (m) => ({
              ...m,
              toolCalls: m.toolCalls.map((c) => (c.id === e.toolCall.id ? { ...c, result: e.result, error: e.error, done: true } : c)),
            }));
            break;
          case "media":
            patch(botId, (m) => ({ ...m, media: [...m.media, ...e.media] }));
            break;
          case "widget_data":
            patch(botId, (m) => ({ ...m, widgetDataList: [...(m.widgetDataList ?? []), e.widgetData] }));
            break;
          case "docs":
            patch(botId, (m) => ({ ...m, docs: [...m.docs, ...e.docs] }));
            break;
          case "workflow_node": {
            const { type: _, ...step } = e;
            patch(botId, (m) => {
              const steps = m.workflowNodes ?? [];
              const at = steps.findIndex((x) => x.runId === step.runId && x.nodeId === step.nodeId);
              return { ...m, workflowNodes: at < 0 ? [...steps, step] : steps.map((x, i) => (i === at ? step : x)) };
            });
            break;
          }
          case "insight_step":
            patch(botId, (m) => ({ ...m, insight: { sessionId: key, insightStep: e.insightStep } }));
            break;
          case "questions":
            patch(botId, (m) => ({ ...m, question: e.questions }));
            break;
          case "error":
            patch(botId, (m) => ({ ...m, loading: false, error: e.msg, errorCode: e.error_code ?? null }));
            break;
          case "stop":
            status = e.status;
            stopped = true;
            patch(botId, (m) => ({
              ...m,
              loading: false,
              writable: false,
              status: e.status,
              processLoading: e.status === "done" ? 100 : m.processLoading,
            }));
            break;
        }
      };
      try {
        let lastError: unknown;
        try {
          await request(controller.signal, onEvent);
        } catch (err) {
          lastError = err;
        }
        // The connection broke mid-reply: the reply goes on on the server; read the rest of it.
        for (let attempt = 0; !stopped && stream.uuid && !controller.signal.aborted && attempt < RESUME_TRIES; attempt++) {
          if (attempt) await new Promise((resolve) => setTimeout(resolve, RESUME_WAIT_MS * attempt));
          try {
            await resumeChat(stream.uuid, seen, { signal: controller.signal, onEvent });
            lastError = undefined;
          } catch (err) {
            lastError = err;
            // Gone (saved long ago, or never stored): the saved session is the truth.
            if (err instanceof ChatRequestError && err.status === 404) break;
          }
        }
        if (lastError && !stopped) throw lastError;
      } catch (err) {
        showContent();
        if (controller.signal.aborted) status = "stopped";
        else {
          const { describeRequestError, requestErrorText } = optsRef.current;
          const msg = describeRequestError?.(err) || (err instanceof ChatRequestError && err.message) || requestErrorText;
          patch(botId, (m) => ({ ...m, loading: false, error: msg }));
          optsRef.current.onRequestError?.(requestErrorText);
        }
      } finally {
        showContent();
        patch(botId, (m) => ({ ...m, loading: false, writable: false, status: m.status ?? status }));
        streams.current.delete(key);
        setStreaming([...streams.current.keys()]);
        optsRef.current.onFinish?.(status, key === NEW ? null : key);
      }
    },
    [],
  );

  const send = useCallback(
    async (query: string, files: ChatFileRef[] = [], o: { reload?: boolean; audioUrl?: string } = {}) => {
      const key = optsRef.current.sessionId ?? NEW;
      if (streams.current.has(key)) return;
      const botId = localId();
      const userMsg: UiMessage = {
        uuid: localId(),
        role: 1,
        content: query,
        toolCalls: [],
        question: [],
        files,
        media: [],
        docs: [],
        ...(o.audioUrl ? { type: "audio" as const, audio: { url: o.audioUrl } } : {}),
      };
      const shown = optsRef.current.history ?? [];
      setLocal((all) => {
        const list = all[key] ?? shown;
        const base = o.reload ? list.slice(0, list.length - (list.at(-1)?.role === 2 ? 1 : 0)) : [...list, userMsg];
        return { ...all, [key]: [...base.map((m) => ({ ...m, question: [] })), placeholder(botId)] };
      });
      await follow(key, botId, userMsg.uuid, (signal, onEvent) =>
        streamChat(
          {
            session_id: key === NEW ? null : key,
            query,
            schema_id: optsRef.current.agentId,
            release: optsRef.current.release,
            files,
            reload: o.reload,
          },
          { signal, onEvent },
        ),
      );
    },
    [follow],
  );

  // A session opened while one of its replies is still being written (the page was left or
  // reloaded): the reply is shown from its start and followed to its end.
  const replying = opts.replying;
  const historyLoaded = !!opts.history;
  useEffect(() => {
    const key = optsRef.current.sessionId;
    if (!replying || !key || !historyLoaded || streams.current.has(key) || attached.current.has(replying)) return;
    attached.current.add(replying);
    const shown = optsRef.current.history ?? [];
    setLocal((all) => ({ ...all, [key]: [...shown.filter((m) => m.uuid !== replying), placeholder(replying)] }));
    void follow(key, replying, null, (signal, onEvent) => resumeChat(replying, 0, { signal, onEvent }));
  }, [replying, historyLoaded, follow]);

  const stop = useCallback(() => {
    const stream = streams.current.get(optsRef.current.sessionId ?? NEW);
    if (!stream) return;
    stream.stopAsked = true;
    // Before the session event the reply has no id yet: the stop goes out as soon as it has one.
    if (stream.uuid) void askStop(stream);
  }, []);

  return { messages, setMessages, pending: streaming.includes(view), send, stop };
}
