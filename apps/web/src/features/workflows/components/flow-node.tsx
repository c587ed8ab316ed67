import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, LoadingOutlined, PauseCircleFilled } from "@ant-design/icons";
import { Handle, type NodeProps, Position } from "@xyflow/react";
import { Tooltip } from "antd";
import { createContext, memo, useContext } from "react";
import { useTranslation } from "react-i18next";
import { sourceHandles } from "../model/nodes";
import { type ClassifierClass, ELSE_HANDLE, LOOP_TYPES, type NodeData, type NodeType } from "../model/types";
import { NodeIcon, nodeMeta, STATUS_COLOR } from "./node-meta";
import { nodeTitle } from "./node-title";

/** What the canvas paints over the graph: the last run's node states and the validation marks. */
export interface CanvasMarks {
  status: Record<string, string>;
  issues: Record<string, string[]>;
  /** Loop and iteration boxes: sized to hold their body. */
  sizes?: Record<string, { width: number; height: number }>;
}
export const MarksContext = createContext<CanvasMarks>({ status: {}, issues: {} });

const STATUS_ICON: Record<string, React.ReactNode> = {
  RUNNING: <LoadingOutlined style={{ color: STATUS_COLOR.RUNNING }} />,
  SUCCEEDED: <CheckCircleFilled style={{ color: STATUS_COLOR.SUCCEEDED }} />,
  FAILED: <CloseCircleFilled style={{ color: STATUS_COLOR.FAILED }} />,
  PAUSED: <PauseCircleFilled style={{ color: STATUS_COLOR.PAUSED }} />,
};

function summary(type: NodeType, data: NodeData): string {
  switch (type) {
    case "code":
      return String(data.language ?? "");
    case "http":
      return `${data.method ?? ""} ${data.url ?? ""}`;
    case "template":
      return String(data.template ?? "");
    case "llm":
    case "human":
      return String(data.prompt ?? "");
    case "answer":
      return String(data.text ?? "");
    case "knowledge":
    case "agent":
    case "classifier":
    case "extractor":
      return String(data.query ?? "");
    case "list":
      return `${data.operation ?? ""} ${data.input ?? ""}`;
    case "iteration":
      return String(data.items ?? "");
    default:
      return "";
  }
}

/** A node's validation mark and run state, at the end of its header. */
function NodeMarks({ id, issues, status }: { id: string; issues: string[]; status?: keyof typeof STATUS_ICON }) {
  return (
    <>
      {issues.length > 0 && (
        <Tooltip title={issues.join("\n")}>
          <ExclamationCircleFilled style={{ color: "#ff4d4f" }} data-testid={`wf-node-issue-${id}`} />
        </Tooltip>
      )}
      {status && STATUS_ICON[status]}
    </>
  );
}

function FlowNodeView({ id, type, data, selected }: NodeProps) {
  const { t } = useTranslation();
  const marks = useContext(MarksContext);
  const nodeType = type as NodeType;
  const meta = nodeMeta(nodeType);
  const status = marks.status[id];
  const issues = marks.issues[id] ?? [];
  const handles = sourceHandles({ type: nodeType, data: data as NodeData });
  const border = issues.length ? "#ff4d4f" : status ? STATUS_COLOR[status] : selected ? "#1677ff" : "#e5e6eb";
  const text = summary(nodeType, data as NodeData);
  const handleLabel = (h: string, i: number) => {
    if (nodeType === "classifier") {
      const c = ((data as NodeData).classes as ClassifierClass[] | undefined)?.find((x) => x.id === h);
      return c?.name || h;
    }
    return h === ELSE_HANDLE ? t("workflows.props.else") : `${i === 0 ? t("workflows.props.if") : t("workflows.props.elseIf")} ${h}`;
  };
  const title = nodeTitle(t, nodeType, data.title);
  if (LOOP_TYPES.has(nodeType)) {
    const size = marks.sizes?.[id] ?? { width: 460, height: 220 };
    const d = data as NodeData;
    const note =
      nodeType === "iteration"
        ? t("workflows.props.parallelismShort", { n: Number(d.parallelism ?? 1) })
        : t("workflows.props.maxIterationsShort", { n: Number(d.maxIterations ?? 10) });
    return (
      <div
        data-testid={`wf-node-${id}`}
        data-status={status ?? ""}
        data-invalid={issues.length ? "true" : "false"}
        style={{
          width: size.width,
          height: size.height,
          background: "rgba(22,119,255,.03)",
          borderRadius: 12,
          border: `2px ${selected || status || issues.length ? "solid" : "dashed"} ${border === "#e5e6eb" ? "#adc6ff" : border}`,
          fontSize: 13,
        }}
      >
        <Handle type="target" position={Position.Left} style={{ top: 28, width: 10, height: 10, background: "#8c8c8c" }} />
        <div style={{ display: "flex", alignItems: "center", gap: 8, padding: "8px 10px" }}>
          <NodeIcon type={nodeType} />
          <span style={{ fontWeight: 600 }}>{title}</span>
          <span style={{ color: "#8c8c8c", fontSize: 12 }}>
            {id} · {note}
          </span>
          <span style={{ flex: 1 }} />
          <NodeMarks id={id} issues={issues} status={status} />
        </div>
        <div
          title={t("workflows.editor.loopBodyHint")}
          style={{ padding: "0 10px", color: "#8c8c8c", fontSize: 12, whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" }}
        >
          {t("workflows.editor.loopBodyHint")}
        </div>
        <Handle type="source" position={Position.Right} style={{ top: 28, width: 10, height: 10, background: meta.color }} />
      </div>
    );
  }
  return (
    <div
      data-testid={`wf-node-${id}`}
      data-status={status ?? ""}
      data-invalid={issues.length ? "true" : "false"}
      style={{
        width: 200,
        background: "#fff",
        borderRadius: 10,
        border: `2px solid ${border}`,
        boxShadow: selected ? "0 0 0 3px rgba(22,119,255,.15)" : "0 1px 4px rgba(0,0,0,.06)",
        fontSize: 13,
      }}
    >
      {nodeType !== "start" && <Handle type="target" position={Position.Left} style={{ width: 10, height: 10, background: "#8c8c8c" }} />}
      <div style={{ display: "flex", alignItems: "center", gap: 8, padding: "8px 10px" }}>
        <NodeIcon type={nodeType} />
        <span style={{ fontWeight: 600, flex: 1, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>{title}</span>
        <NodeMarks id={id} issues={issues} status={status} />
      </div>
      <div style={{ padding: "0 10px 8px", color: "#8c8c8c", fontSize: 12 }}>
        <div style={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>{id}</div>
        {text && <div style={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap", color: "#595959" }}>{text}</div>}
      </div>
      {handles ? (
        <div style={{ borderTop: "1px solid #f0f0f0" }}>
          {handles.map((h, i) => (
            <div key={h} style={{ position: "relative", padding: "4px 10px", textAlign: "right", fontSize: 12, color: "#595959" }}>
              {handleLabel(h, i)}
              <Handle
                type="source"
                id={h}
                position={Position.Right}
                data-testid={`wf-handle-${id}-${h}`}
                style={{ width: 10, height: 10, background: meta.color }}
              />
            </div>
          ))}
        </div>
      ) : (
        nodeType !== "end" && <Handle type="source" position={Position.Right} style={{ width: 10, height: 10, background: meta.color }} />
      )}
    </div>
  );
}

export const FlowNode = memo(FlowNodeView);
