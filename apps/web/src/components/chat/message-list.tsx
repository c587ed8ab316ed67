import {
  CopyOutlined,
  DislikeFilled,
  DislikeOutlined,
  LikeFilled,
  LikeOutlined,
  RedoOutlined,
  ShareAltOutlined,
  UserOutlined,
} from "@ant-design/icons";
import { Bubble } from "@ant-design/x";
import { XStyles } from "./x-styles";
import { App, Avatar, Button, Space, Spin, Tooltip } from "antd";
import { memo, useCallback, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { API, http } from "../../lib/http";
import { AgentAvatar } from "./agent-avatar";
import { type ChatAgent, copyText } from "./chat-view";
import type { ChatBus } from "./event-bus";
import { MessageBody } from "./message-body";
import { ProgressSteps } from "./progress-steps";
import { RawTextBoundary } from "./raw-text";
import type { UiMessage } from "./use-chat";

/**
 * The messages of a chat: bubbles, reply stages, tool calls, cards and insight steps. Loaded with the
 * first message (chat-view.tsx), so a new chat's first paint carries only its welcome.
 */
export function MessageList(props: {
  agent: ChatAgent;
  share: boolean;
  pendding: boolean;
  messageList: UiMessage[];
  bus: ChatBus;
  onShare?: () => void;
}) {
  const { agent, share, pendding, messageList, bus } = props;
  // The rows' actions read the latest list and callbacks: a row stays the same between streamed pieces.
  const latest = useRef(props);
  latest.current = props;
  /** Asks the question before this reply again; the reply is replaced. */
  const retry = useCallback(
    (index: number) =>
      latest.current.bus.emit("send-plugins-button", {
        title: "retry",
        content: latest.current.messageList[index - 1]?.content ?? "",
        index: index - 1,
        reload: true,
      }),
    [],
  );
  const share_ = useCallback(() => latest.current.onShare?.(), []);

  return (
    <XStyles>
      {messageList.map((m, index) => (
        <MessageRow
          key={m.uuid}
          message={m}
          index={index}
          isLast={index === messageList.length - 1}
          agentName={agent.agentName}
          agentIcon={agent.agentIcon}
          agentIconBackground={agent.agentIconBackground}
          share={share}
          pendding={pendding}
          bus={bus}
          retry={retry}
          onShare={props.onShare ? share_ : undefined}
        />
      ))}
    </XStyles>
  );
}

/**
 * One message with its avatar, stages and actions. Rendered again only when its own props change:
 * a streamed piece re-renders the reply it belongs to, not every bubble of the session.
 */
const MessageRow = memo(function MessageRow({
  message: m,
  index,
  isLast,
  agentName,
  agentIcon,
  agentIconBackground,
  share,
  pendding,
  bus,
  retry,
  onShare,
}: {
  message: UiMessage;
  index: number;
  isLast: boolean;
  agentName: string;
  agentIcon?: string;
  agentIconBackground?: string;
  share: boolean;
  pendding: boolean;
  bus: ChatBus;
  retry: (index: number) => void;
  onShare?: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    if (await copyText(m.content)) message.success(t("chat.copied"));
    else message.error(t("chat.copyFailed"));
  };
  const isUser = m.role === 1;
  const stopped = m.status === "stopped";
  const failed = m.status === "failed";
  // The stages show from the first moment; dots stand in for the text until it comes.
  const waiting = !!m.loading && !m.content && !m.toolCalls.length;
  return (
    <div className={`chat-row ${isUser ? "chat-row-user" : "chat-row-bot"}`} data-testid={isUser ? "msg-user" : "msg-bot"}>
      <Bubble
        placement={isUser ? "end" : "start"}
        variant={isUser ? "filled" : "outlined"}
        avatar={
          isUser ? (
            <Avatar icon={<UserOutlined />} style={{ background: "#1677ff" }} />
          ) : (
            <AgentAvatar icon={agentIcon} background={agentIconBackground} name={agentName} />
          )
        }
        header={
          !isUser && (m.writable || m.stepNum !== undefined || stopped || failed) ? (
            <ProgressSteps stepNum={m.stepNum} percent={m.processLoading} stopped={stopped} failed={failed} done={m.status === "done"} />
          ) : undefined
        }
        content={m.content}
        contentRender={() =>
          waiting ? (
            <Spin size="small" className="chat-waiting" />
          ) : (
            // A message that cannot be shown shows its text, not an error page instead of the chat.
            <RawTextBoundary raw={m.content}>
              <MessageBody message={m} bus={bus} onRetry={!share && isLast && failed && !pendding ? () => retry(index) : undefined} />
            </RawTextBoundary>
          )
        }
        footer={
          !isUser && !m.writable && !m.hideCopy ? (
            <Space size={2} className="chat-actions">
              <Tooltip title={t("chat.copy")}>
                <Button type="text" size="small" icon={<CopyOutlined />} onClick={copy} aria-label={t("chat.copy")} />
              </Tooltip>
              {!share && m.status === "done" && <Feedback message={m} />}
              {!share && isLast && (
                <Tooltip title={t("chat.retry")}>
                  <Button
                    type="text"
                    size="small"
                    icon={<RedoOutlined />}
                    disabled={pendding}
                    aria-label={t("chat.retry")}
                    onClick={() => retry(index)}
                  />
                </Tooltip>
              )}
              {!share && onShare && (
                <Tooltip title={t("chat.share")}>
                  <Button type="text" size="small" icon={<ShareAltOutlined />} onClick={onShare} aria-label={t("chat.share")} />
                </Tooltip>
              )}
            </Space>
          ) : undefined
        }
      />
      {!isUser && !share && isLast && !m.writable && m.question.length > 0 && (
        <div className="chat-suggestions" data-testid="chat-suggestions">
          <div className="chat-suggestions-title">{t("chat.suggestions")}</div>
          <Space wrap>
            {m.question.map((q) => (
              <Button key={q} size="small" shape="round" onClick={() => bus.emit("send-msg-button", { text: q })}>
                {q}
              </Button>
            ))}
          </Space>
        </div>
      )}
    </div>
  );
});

/** Like or dislike of a reply (POST /agent/agent_runtime/message/feedback); a second click withdraws it. */
function Feedback({ message: m }: { message: UiMessage }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(m.feedback ?? null);
  const give = async (next: "like" | "dislike") => {
    const feedback = value === next ? null : next;
    await http.post<null>(`${API.runtime}/message/feedback`, { message_id: m.uuid, feedback }, { silent: true });
    setValue(feedback);
  };
  return (
    <>
      <Tooltip title={t("chat.like")}>
        <Button
          type="text"
          size="small"
          icon={value === "like" ? <LikeFilled /> : <LikeOutlined />}
          onClick={() => give("like")}
          aria-label={t("chat.like")}
          aria-pressed={value === "like"}
          data-testid="chat-like"
        />
      </Tooltip>
      <Tooltip title={t("chat.dislike")}>
        <Button
          type="text"
          size="small"
          icon={value === "dislike" ? <DislikeFilled /> : <DislikeOutlined />}
          onClick={() => give("dislike")}
          aria-label={t("chat.dislike")}
          aria-pressed={value === "dislike"}
          data-testid="chat-dislike"
        />
      </Tooltip>
    </>
  );
}
