import { FileOutlined, RedoOutlined } from "@ant-design/icons";
import { Alert, Button, Collapse, Space } from "antd";
import { useTranslation } from "react-i18next";
import type { ChatBus } from "./event-bus";
import { Markdown } from "./markdown";
import { ToolCalls } from "./tool-calls";
import type { MessageType, UiMessage } from "./use-chat";

const parseJson = (text: string): unknown => {
  const s = text.trim();
  if (!(s.startsWith("{") || s.startsWith("["))) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
};

const isCollapse = (v: unknown): v is { title: string; content: string }[] =>
  Array.isArray(v) && v.length > 0 && v.every((i) => i && typeof i === "object" && "title" in i && "content" in i);

const menuOptions = (w: unknown): { label: string; value?: string }[] | null => {
  const options = (w as { options?: unknown })?.options;
  return Array.isArray(options) && options.every((o) => typeof o?.label === "string")
    ? (options as { label: string; value?: string }[])
    : null;
};

/** The message's render type: audio, tool, collapse, menu, json or plain text. */
export function messageType(m: UiMessage): MessageType {
  if (m.type && m.type !== "tool") return m.type;
  if (m.audio) return "audio";
  if (m.toolCalls.length) return "tool";
  if (menuOptions(m.widgetData)) return "menu";
  if (!m.writable) {
    const json = parseJson(m.content);
    if (isCollapse(json)) return "collapse";
    if (json !== undefined) return "json";
  }
  return "plain";
}

const isImage = (name: string, type?: string) => /^image\//.test(type ?? "") || /\.(png|jpe?g)$/i.test(name);

/** A reply's error in the page's language: worded from its code when it has one. */
export function useErrorText(message: Pick<UiMessage, "error" | "errorCode">) {
  const { t } = useTranslation();
  if (message.errorCode) return t(`chat.errors.${message.errorCode}`);
  return message.error;
}

export function MessageBody({ message, bus, onRetry }: { message: UiMessage; bus: ChatBus; onRetry?: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText(message);
  const type = messageType(message);
  const files = message.files.length ? (
    <Space wrap size={6} className="chat-files">
      {message.files.map((f) =>
        isImage(f.name, f.type) ? (
          <img key={f.id} src={`/agent_api/api/files/data/${f.id}`} alt={f.name} className="chat-file-image" />
        ) : (
          <span key={f.id} className="chat-file-chip">
            <FileOutlined /> {f.name}
          </span>
        ),
      )}
    </Space>
  ) : null;
  const media = message.media.length ? (
    <Space wrap size={6}>
      {message.media.map((m) =>
        m.mimeType.startsWith("image/") ? (
          <img key={m.url} src={m.url} alt={m.name} className="chat-file-image" />
        ) : (
          <a key={m.url} href={m.url} target="_blank" rel="noopener noreferrer" className="chat-file-chip">
            <FileOutlined /> {m.name}
          </a>
        ),
      )}
    </Space>
  ) : null;

  let body: React.ReactNode;
  switch (type) {
    case "audio":
      body = message.audio ? (
        <>
          <audio controls src={message.audio.url} style={{ minWidth: 80 }}>
            <track kind="captions" />
          </audio>
          {message.content && <div className="chat-user-text">{message.content}</div>}
        </>
      ) : (
        <span>{message.loading ? t("chat.waitingAudio") : message.content}</span>
      );
      break;
    case "collapse": {
      const items = parseJson(message.content) as { title: string; content: string }[];
      body = (
        <Collapse size="small" items={items.map((i, k) => ({ key: k, label: i.title, children: <Markdown text={String(i.content)} /> }))} />
      );
      break;
    }
    case "json":
      body = <pre className="chat-json">{JSON.stringify(parseJson(message.content), null, 2)}</pre>;
      break;
    case "menu":
      body = (
        <>
          {message.content && <Markdown text={message.content} />}
          <Space wrap>
            {menuOptions(message.widgetData)?.map((o) => (
              <Button
                key={o.label}
                shape="round"
                type="primary"
                ghost
                onClick={() => bus.emit("send-msg-button", { text: o.value ?? o.label })}
              >
                {o.label}
              </Button>
            ))}
          </Space>
        </>
      );
      break;
    case "tool":
      body = (
        <>
          <ToolCalls calls={message.toolCalls} />
          {message.content && <Markdown text={message.content} streaming={message.writable} />}
        </>
      );
      break;
    default:
      body =
        message.role === 1 ? (
          <div className="chat-user-text">{message.content}</div>
        ) : (
          <Markdown text={message.content} streaming={message.writable} />
        );
  }
  return (
    <div className="chat-message-body">
      {files}
      {body}
      {media}
      {message.docs.length > 0 && (
        <div className="chat-docs">
          <div className="chat-suggestions-title">{t("chat.docs")}</div>
          {message.docs.map((d) => (
            <div key={d.title + d.content.slice(0, 20)} className="chat-file-chip">
              <FileOutlined />{" "}
              {d.url ? (
                <a href={d.url} target="_blank" rel="noopener noreferrer">
                  {d.title}
                </a>
              ) : (
                d.title
              )}
            </div>
          ))}
        </div>
      )}
      {errorText && (
        <Alert
          className="chat-error"
          role="alert"
          showIcon
          // The tool-round limit ends a reply that is otherwise fine: a notice, not a failure.
          type={message.errorCode === "stepLimit" ? "warning" : "error"}
          title={errorText}
          action={
            onRetry && (
              <Button size="small" icon={<RedoOutlined />} onClick={onRetry}>
                {t("chat.retry")}
              </Button>
            )
          }
        />
      )}
    </div>
  );
}
