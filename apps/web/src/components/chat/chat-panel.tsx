import type { ChatFileRef, ReplyStatus } from "@agentfair/contracts";
import { App, Alert, Button } from "antd";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { type ChatRefusal, ChatRequestError } from "./api/chat-stream";
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
  /** Messages of the session as loaded from the server; undefined while loading. */
  history?: UiMessage[];
  /** A reply of the session still being written on the server (its uuid): shown as it goes on. */
  replying?: string;
  share?: boolean;
  bus?: ChatBus;
  onSession?: (sessionId: string, title: string, created: boolean) => void;
  onFinish?: (status: ReplyStatus, sessionId: string | null) => void;
  /** Asked before each send (e.g. to confirm a charge); false cancels it. */
  beforeSend?: () => Promise<boolean> | boolean;
  onShare?: () => void;
  onClear?: () => void;
  /**
   * The caller may not send here (e.g. a FREE user on a priced agent): this notice takes the
   * input's place, and question buttons call `onBlocked` instead of sending.
   */
  blocked?: { notice: ReactNode; onBlocked: () => void };
  /** A line under the input (e.g. who else reads this conversation). */
  footnote?: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const ownBus = useMemo(() => createBus<ChatBusEvents>(), []);
  const bus = props.bus ?? ownBus;
  const chat = useChat({
    agentId: props.agentId,
    release: props.release,
    sessionId: props.sessionId,
    history: props.history,
    replying: props.replying,
    onSession: props.onSession,
    onFinish: props.onFinish,
    requestErrorText: t("chat.requestError"),
    onRequestError: (msg) => message.error(msg),
    describeRequestError: (err) => {
      // A refusal the membership page answers: the way there stays above the input.
      if (err instanceof ChatRequestError && err.reason) setRefusal({ reason: err.reason, text: err.message });
      // Validation details (field names, limits) are for developers: people get a plain sentence.
      return err instanceof ChatRequestError && err.status === 400 && /^(参数错误|parameter error)/.test(err.message)
        ? t("chat.requestInvalid")
        : "";
    },
  });
  /** The last send's refusal (no membership, no chats left today, no balance) until the next send. */
  const [refusal, setRefusal] = useState<{ reason: ChatRefusal; text: string } | null>(null);
  const { setMessages, send } = chat;
  const beforeSend = useRef(props.beforeSend);
  beforeSend.current = props.beforeSend;
  /** Every send goes through here: the input, retry, and the question buttons. */
  const asking = useRef(false);
  const ask = useRef(async (...args: Parameters<typeof send>) => {
    // One question at a time while the caller is asked (a second Enter does not open a second dialog).
    if (asking.current) return false;
    asking.current = true;
    const go = await Promise.resolve(beforeSend.current?.() ?? true).finally(() => {
      asking.current = false;
    });
    if (!go) return false;
    setRefusal(null);
    void send(...args);
    return true;
  }).current;

  useEffect(() => {
    const off = bus.on("send-plugins-button", (e) => {
      if (e.reload) void ask(e.content ?? "", [], { reload: true });
      else if (e.content) void ask(e.content);
    });
    return () => {
      off();
    };
  }, [bus, ask]);

  const onBlocked = props.blocked?.onBlocked;
  useEffect(() => {
    if (!onBlocked) return;
    const offs = (["send-msg-button", "send-preset-questions", "question", "send-chat-button"] as const).map((name) =>
      bus.on(name, onBlocked),
    );
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
      {!props.share && !props.blocked && refusal && <RefusalNotice {...refusal} />}
      {!props.share && !props.blocked && (
        <ChatInput
          pending={chat.pending}
          bus={bus}
          onSend={(q: string, files: ChatFileRef[], audioUrl?: string) => ask(q, files, { audioUrl })}
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
      {!props.share && props.footnote && (
        <div className="chat-footnote" data-testid="chat-footnote">
          {props.footnote}
        </div>
      )}
    </div>
  );
}

/**
 * Above the input after a refusal: what the server said and the button to where it is answered (the
 * chat page has no menu to find the membership centre by).
 */
function RefusalNotice({ reason, text }: { reason: ChatRefusal; text: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const label =
    reason === "balanceInsufficient"
      ? t("chat.topUp")
      : reason === "dailyChatsExhausted"
        ? t("chat.upgradeMembership")
        : t("chat.openMembership");
  return (
    <div className="chat-blocked" data-testid="chat-refusal">
      <Alert
        type="warning"
        showIcon
        title={text}
        action={
          <Button type="primary" size="small" onClick={() => navigate("/recharge")}>
            {label}
          </Button>
        }
      />
    </div>
  );
}
