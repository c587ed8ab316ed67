import { ToolOutlined } from "@ant-design/icons";
import { ThoughtChain } from "@ant-design/x";
import { useTranslation } from "react-i18next";
import type { UiToolCall } from "./use-chat";

/** Tool calls of a reply: function name, arguments, metaInfo name and the result. */
export function ToolCalls({ calls }: { calls: UiToolCall[] }) {
  const { t } = useTranslation();
  if (!calls.length) return null;
  return (
    <ThoughtChain
      className="chat-tool-calls"
      items={calls.map((c) => ({
        key: c.id,
        icon: <ToolOutlined />,
        title: `${t("chat.toolCall")}：${c.metaInfo.name}`,
        description: c.function.name,
        status: c.error ? "error" : c.done ? "success" : "loading",
        collapsible: true,
        content: (
          <div className="chat-tool-detail">
            <div>
              <b>{t("chat.toolArguments")}</b> <code>{c.function.arguments}</code>
            </div>
            {c.result !== undefined && (
              <div>
                <b>{t("chat.toolResult")}</b> <code>{c.result}</code>
              </div>
            )}
          </div>
        ),
      }))}
    />
  );
}
