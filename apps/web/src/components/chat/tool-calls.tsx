import { ApartmentOutlined, ToolOutlined } from "@ant-design/icons";
import type { CheckPluginItem } from "@agentfair/contracts";
import { ThoughtChain } from "@ant-design/x";
import { Tag } from "antd";
import { useTranslation } from "react-i18next";
import { shownToolName } from "./tool-name";
import type { UiToolCall, WorkflowNodeStep } from "./use-chat";

/** The plugins, MCP tools and workflows a reply called, each once, by its spec name (doc 2 §3 "checkPluginsList"). */
export function CheckPlugins({ items }: { items: CheckPluginItem[] }) {
  const { t } = useTranslation();
  if (!items.length) return null;
  return (
    <div className="chat-check-plugins" data-testid="chat-check-plugins">
      <span className="chat-check-plugins-title">{t("chat.checkPlugins")}</span>
      {items.map((p) => (
        <Tag key={p.id} variant="filled" color={p.externalPluginName ? "purple" : p.workflowName ? "cyan" : "blue"}>
          {p.pluginName ?? p.externalPluginName ?? p.workflowName}
        </Tag>
      ))}
    </div>
  );
}

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
        title: t("chat.toolCall", { name: shownToolName(t, c.metaInfo.name) }),
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

const NODE_STATUS = { RUNNING: "loading", PAUSED: "abort", SUCCEEDED: "success", FAILED: "error", SKIPPED: "abort" } as const;

/** A workflow tool's nodes as the run goes (its `workflow_node` events), skipped branches left out. */
export function WorkflowSteps({ steps }: { steps: WorkflowNodeStep[] }) {
  const { t } = useTranslation();
  const shown = steps.filter((s) => s.status !== "SKIPPED");
  if (!shown.length) return null;
  return (
    <div className="chat-workflow-steps" data-testid="chat-workflow-steps">
      <ThoughtChain
        items={shown.map((s) => ({
          key: `${s.runId}:${s.nodeId}`,
          icon: <ApartmentOutlined />,
          title: s.title || s.nodeId,
          description: `${s.workflowName} · ${t(`chat.workflowNode.${s.status}`)}`,
          status: NODE_STATUS[s.status],
        }))}
      />
    </div>
  );
}
