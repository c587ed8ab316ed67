import { Prompts, Welcome } from "@ant-design/x";
import { XStyles } from "./x-styles";
import { Spin } from "antd";
import { lazy, Suspense, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { loadAreas } from "../../i18n";
import { AgentAvatar } from "./agent-avatar";
import type { ChatBus } from "./event-bus";
import type { UiMessage } from "./use-chat";

/** The message list (bubbles, reply stages, tool calls, cards) comes with the first message, not with the welcome. */
const MessageList = lazy(() =>
  // Insight steps show in messages: their texts come with the list.
  Promise.all([import("./message-list"), loadAreas("insight")]).then(([m]) => ({ default: m.MessageList })),
);

export interface ChatAgent {
  agentName: string;
  agentIcon?: string;
  agentIconBackground?: string;
  prologue?: string;
  presetQuestions?: string[];
}

/** Copy strips HTML tags from the message content. */
export async function copyText(html: string) {
  const text = html.replace(/<[^>]*>/g, "");
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/**
 * The chat message list (doc 2 §3 chat view props: currentAgent, sessionId, share, pendding,
 * messageList). User messages on the right, agent messages on the left; share mode is
 * read-only and hides retry and share. Scrolls to the bottom on new content.
 */
export function ChatView(props: {
  currentAgent: ChatAgent;
  sessionId: string | null;
  share: boolean;
  pendding: boolean;
  messageList: UiMessage[];
  bus: ChatBus;
  onShare?: () => void;
}) {
  const { t } = useTranslation();
  const { currentAgent: agent, share, pendding, messageList, bus } = props;
  const bottom = useRef<HTMLDivElement>(null);
  const last = messageList.at(-1);
  // Once a frame at most: a streamed piece every few milliseconds would lay the page out for each.
  const frame = useRef(0);
  useEffect(() => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      bottom.current?.scrollIntoView({ block: "end" });
    });
  }, [messageList.length, last?.content, last?.toolCalls.length, last?.question.length, last?.error]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  // Content that grows later (diagrams, images) keeps the view at the bottom when it was there.
  useEffect(() => {
    const view = bottom.current?.parentElement;
    const scroller = view?.parentElement;
    if (!view || !scroller || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 240) bottom.current?.scrollIntoView({ block: "end" });
    });
    observer.observe(view);
    return () => observer.disconnect();
  }, []);

  return (
    <div className="chat-view" data-testid="chat-view">
      {messageList.length === 0 && (
        <XStyles>
          <div className="chat-welcome">
            <Welcome
              icon={<AgentAvatar icon={agent.agentIcon} background={agent.agentIconBackground} name={agent.agentName} size={48} />}
              title={agent.agentName}
              description={agent.prologue || t("chat.prologueDefault", { name: agent.agentName })}
            />
            {!share && !!agent.presetQuestions?.length && (
              <Prompts
                title={t("chat.presetQuestions")}
                wrap
                items={agent.presetQuestions.map((q) => ({ key: q, description: q }))}
                onItemClick={({ data }) => bus.emit("send-preset-questions", { text: String(data.description) })}
                style={{ marginTop: 16 }}
              />
            )}
          </div>
        </XStyles>
      )}
      {messageList.length > 0 && (
        // Spinner only while the list's code arrives the first time (a moment): never text that is missing.
        <Suspense fallback={<Spin size="small" className="chat-waiting" />}>
          <MessageList agent={agent} share={share} pendding={pendding} messageList={messageList} bus={bus} onShare={props.onShare} />
        </Suspense>
      )}
      <div ref={bottom} />
    </div>
  );
}
