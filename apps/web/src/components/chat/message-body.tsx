import { FileOutlined, RedoOutlined } from "@ant-design/icons";
import { readWidgetData } from "@agentfair/contracts";
import { Alert, Button, Collapse, Space } from "antd";
import { useTranslation } from "react-i18next";
import type { ChatBus } from "./event-bus";
import { InsightProgress } from "./insight-steps";
import { Markdown } from "./lazy-markdown";
import { asText, RawTextBoundary } from "./raw-text";
import { CheckPlugins, ToolCalls, WorkflowSteps } from "./tool-calls";
import type { MessageType, UiMessage } from "./use-chat";
import { ButtonRow, WidgetView } from "./widgets";

const parseJson = (text: string): unknown => {
  const s = text.trim();
  if (!(s.startsWith("{") || s.startsWith("["))) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
};

const isCollapse = (v: unknown): v is { title: unknown; content: unknown }[] =>
  Array.isArray(v) && v.length > 0 && v.every((i) => i && typeof i === "object" && "title" in i && "content" in i);

/** A message's cards in order: its list, else its one widgetData. */
const widgetsOf = (m: UiMessage) => m.widgetDataList ?? (m.widgetData === undefined ? [] : [m.widgetData]);

/** The options of a landscape button row (a menu message): widgetData of kind "buttons", or the older `{ options }`. */
const menuOptions = (w: unknown) => {
  const widget = readWidgetData(w);
  return widget?.config.kind === "buttons" ? widget.config.options : null;
};

/** The message's render type: audio, tool, collapse, menu, json or plain text. */
export function messageType(m: UiMessage): MessageType {
  if (m.type && m.type !== "tool") return m.type;
  if (m.audio) return "audio";
  if (m.toolCalls.length) return "tool";
  if (menuOptions(widgetsOf(m)[0])) return "menu";
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
      // Any JSON may come: a title or a content that is not a string shows as its JSON.
      const items = parseJson(message.content) as { title: unknown; content: unknown }[];
      const text = (v: unknown) => (typeof v === "string" ? v : `\`\`\`json\n${asText(v, 2)}\n\`\`\``);
      body = (
        <Collapse
          size="small"
          items={items.map((i, k) => ({ key: k, label: asText(i.title), children: <Markdown text={text(i.content)} /> }))}
        />
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
          <ButtonRow options={menuOptions(widgetsOf(message)[0]) ?? []} bus={bus} />
        </>
      );
      break;
    case "tool":
      body = (
        <>
          <CheckPlugins items={message.checkPluginsList ?? []} />
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
  // A workflow's nodes (a workflow tool, or the workflow a self-orchestrated agent follows) come before the text.
  const steps = message.workflowNodes?.length ? <WorkflowSteps steps={message.workflowNodes} /> : null;
  // Cards and designs bound to tools show below the reply's text, in order (the menu already showed its row).
  const widgets = widgetsOf(message)
    .slice(type === "menu" ? 1 : 0)
    .flatMap((w) => readWidgetData(w) ?? []);
  return (
    <div className="chat-message-body">
      {files}
      {steps}
      {/* What fails to render shows as its raw text, the rest of the message as it is. */}
      <RawTextBoundary raw={message.content}>{body}</RawTextBoundary>
      {/* A reply's cards never reorder: their position is their identity. */}
      {widgets.map((widget, i) => (
        <RawTextBoundary key={i} raw={asText(widget, 2)}>
          <WidgetView widget={widget} bus={bus} />
        </RawTextBoundary>
      ))}
      {message.insight && (
        <InsightProgress sessionId={message.insight.sessionId} messageId={message.uuid} steps={message.insight.insightStep} />
      )}
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
