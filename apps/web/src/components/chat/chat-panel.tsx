import type { ChatFileRef, ReplyStatus } from "@agentfair/contracts";
import { App } from "antd";
import { type ReactNode, useEffect, useMemo, useRef } from "react";
import { useTranslation } from "react-i18next";
import "./chat.css";
import { ChatInput } from "./chat-input";
import { type ChatAgent, ChatView } from "./chat-view";
import { type ChatBus, type ChatBusEvents, createBus } from "./event-bus";
import { type UiMessage, useChat } from "./use-chat";

/**
 * The reusable chat: message list + input + the stream, for one agent and one session. The
 * execute page uses it with released agents, the studio's debug pane with the draft.
 */
export function ChatPanel(props: {
  agentId: string;
  release: boolean;
  agent: ChatAgent;
  sessionId: string | null;
  /** Messages of the session as loaded from the server (replaced when the session changes). */
  history?: UiMessage[];
  share?: boolean;
  bus?: ChatBus;
  onSession?: (sessionId: string, title: string) => void;
  onFinish?: (status: ReplyStatus) => void;
  onShare?: () => void;
  onClear?: () => void;
  /**
   * The caller may not send here (e.g. a FREE user on a priced agent): this notice takes the
   * input's place, and question buttons call `onBlocked` instead of sending.
   */
  blocked?: { notice: ReactNode; onBlocked: () => void };
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const ownBus = useMemo(() => createBus<ChatBusEvents>(), []);
  const bus = props.bus ?? ownBus;
  const ownSession = useRef<string | null>(null);
  const applied = useRef<string | null | undefined>(undefined);
  const chat = useChat({
    agentId: props.agentId,
    release: props.release,
    sessionId: props.sessionId,
    onSession: (sid, title) => {
      ownSession.current = sid;
      props.onSession?.(sid, title);
    },
    onFinish: props.onFinish,
    requestErrorText: t("chat.requestError"),
    onRequestError: (msg) => message.error(msg),
  });
  const { setMessages, send } = chat;

  // The local messages are the truth for a session this panel created or is streaming into;
  // otherwise (another session chosen, a share view) the server's history is shown.
  useEffect(() => {
    if (chat.pending) return;
    if (props.sessionId && props.sessionId === ownSession.current) {
      applied.current = props.sessionId;
      return;
    }
    ownSession.current = null;
    if (props.history === undefined) {
      if (applied.current !== props.sessionId) setMessages([]);
      return;
    }
    applied.current = props.sessionId;
    setMessages(props.history);
  }, [props.sessionId, props.history]);

  useEffect(() => {
    const off = bus.on("send-plugins-button", (e) => {
      if (e.reload) void send(e.content ?? "", [], { reload: true });
      else if (e.content) void send(e.content);
    });
    return () => {
      off();
    };
  }, [bus, send]);

  const onBlocked = props.blocked?.onBlocked;
  useEffect(() => {
    if (!onBlocked) return;
    const offs = (["send-msg-button", "send-preset-questions", "question"] as const).map((name) => bus.on(name, onBlocked));
    return () => {
      for (const off of offs) off();
    };
  }, [bus, onBlocked]);

  return (
    <div className="chat-panel">
      <div className="chat-scroll">
        <ChatView
          currentAgent={props.agent}
          sessionId={props.sessionId}
          share={!!props.share}
          pendding={chat.pending}
          messageList={chat.messages}
          bus={bus}
          onShare={props.onShare}
        />
      </div>
      {!props.share && props.blocked && <div className="chat-blocked">{props.blocked.notice}</div>}
      {!props.share && !props.blocked && (
        <ChatInput
          pending={chat.pending}
          bus={bus}
          onSend={(q: string, files: ChatFileRef[], audioUrl?: string) => void send(q, files, { audioUrl })}
          onStop={chat.stop}
          onClear={
            props.onClear
              ? () => {
                  props.onClear?.();
                  setMessages([]);
                }
              : undefined
          }
        />
      )}
    </div>
  );
}
