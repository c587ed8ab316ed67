import type { ChatEvent, ChatFileRef, ChatMedia, ChatMessage, ReplyStatus, ToolCallInfo } from "@agentfair/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { ChatRequestError, streamChat } from "./api/chat-stream";

export type MessageType = "audio" | "tool" | "collapse" | "menu" | "json" | "plain";
export type UiToolCall = ToolCallInfo & { result?: string; done?: boolean; error?: boolean };

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
  question: string[];
  error?: string;
  status?: ReplyStatus | null;
  files: ChatFileRef[];
  media: ChatMedia[];
  docs: { title: string; content: string; url?: string }[];
  widgetData?: unknown;
  audio?: { url: string; duration?: number };
  hideCopy?: boolean;
}

export const fromServer = (m: ChatMessage): UiMessage => ({
  uuid: m.uuid,
  role: m.role === "user" ? 1 : 2,
  content: m.content,
  stepNum: m.role === "bot" ? Math.max(0, Math.min(4, m.step - 1)) : undefined,
  processLoading: m.status === "done" ? 100 : undefined,
  toolCalls: m.function_call.map((c) => ({ ...c, done: true })),
  question: m.questions,
  error: m.error ?? undefined,
  status: m.status,
  files: m.files,
  media: m.media,
  docs: m.docs,
  widgetData: m.widgetData,
});

const localId = () => `local-${Math.random().toString(36).slice(2)}`;

export interface UseChatOptions {
  agentId: string;
  release: boolean;
  sessionId: string | null;
  /** A new session was created by the first send, or its title became known. */
  onSession?: (sessionId: string, title: string) => void;
  /** A reply ended (done, stopped or failed). */
  onFinish?: (status: ReplyStatus) => void;
  requestErrorText: string;
  onRequestError?: (msg: string) => void;
}

/** The chat state machine: user message, placeholder reply, streamed events, a stop event finalises. */
export function useChat(opts: UseChatOptions) {
  const [messages, setMessages] = useState<UiMessage[]>([]);
  const [pending, setPending] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const sessionRef = useRef(opts.sessionId);
  const optsRef = useRef(opts);
  optsRef.current = opts;

  useEffect(() => {
    sessionRef.current = opts.sessionId;
  }, [opts.sessionId]);
  useEffect(() => () => abort.current?.abort(), []);

  const patch = (uuid: string, fn: (m: UiMessage) => UiMessage) => setMessages((list) => list.map((m) => (m.uuid === uuid ? fn(m) : m)));

  const send = useCallback(async (query: string, files: ChatFileRef[] = [], o: { reload?: boolean; audioUrl?: string } = {}) => {
    if (abort.current) return;
    const controller = new AbortController();
    abort.current = controller;
    setPending(true);
    let botId = localId();
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
    const bot: UiMessage = {
      uuid: botId,
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
    };
    setMessages((list) => {
      const base = o.reload ? list.slice(0, list.length - (list.at(-1)?.role === 2 ? 1 : 0)) : [...list, userMsg];
      return [...base.map((m) => ({ ...m, question: [] })), bot];
    });
    let status: ReplyStatus = "failed";
    const onEvent = (e: ChatEvent) => {
      switch (e.type) {
        case "session": {
          const old = botId;
          botId = e.uuid;
          sessionRef.current = e.session_id;
          setMessages((list) =>
            list.map((m) => (m.uuid === old ? { ...m, uuid: e.uuid } : m.uuid === userMsg.uuid ? { ...m, uuid: e.question_uuid } : m)),
          );
          optsRef.current.onSession?.(e.session_id, e.title);
          break;
        }
        case "progress":
          patch(botId, (m) => ({ ...m, stepNum: e.stage - 1, processLoading: e.percent }));
          break;
        case "content":
          patch(botId, (m) => ({ ...m, loading: false, content: m.content + e.delta }));
          break;
        case "tool_call_start":
          patch(botId, (m) => ({ ...m, loading: false, type: "tool", toolCalls: [...m.toolCalls, { ...e.toolCall }] }));
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
          patch(botId, (m) => ({ ...m, widgetData: e.widgetData }));
          break;
        case "docs":
          patch(botId, (m) => ({ ...m, docs: [...m.docs, ...e.docs] }));
          break;
        case "questions":
          patch(botId, (m) => ({ ...m, question: e.questions }));
          break;
        case "error":
          patch(botId, (m) => ({ ...m, loading: false, error: e.msg }));
          break;
        case "stop":
          status = e.status;
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
      await streamChat(
        {
          session_id: sessionRef.current,
          query,
          schema_id: optsRef.current.agentId,
          release: optsRef.current.release,
          files,
          reload: o.reload,
        },
        { signal: controller.signal, onEvent },
      );
    } catch (err) {
      if (controller.signal.aborted) status = "stopped";
      else {
        const msg = err instanceof ChatRequestError && err.message ? err.message : optsRef.current.requestErrorText;
        patch(botId, (m) => ({ ...m, loading: false, error: msg }));
        optsRef.current.onRequestError?.(optsRef.current.requestErrorText);
      }
    } finally {
      patch(botId, (m) => ({ ...m, loading: false, writable: false, status: m.status ?? status }));
      abort.current = null;
      setPending(false);
      optsRef.current.onFinish?.(status);
    }
  }, []);

  const stop = useCallback(() => abort.current?.abort(), []);

  return { messages, setMessages, pending, send, stop };
}
