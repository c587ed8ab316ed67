import {
  ApiOutlined,
  BranchesOutlined,
  CodeOutlined,
  FileTextOutlined,
  FlagOutlined,
  GlobalOutlined,
  PlayCircleOutlined,
  ReadOutlined,
  RobotOutlined,
  ThunderboltOutlined,
  UserOutlined,
  MessageOutlined,
  AppstoreOutlined,
  TagsOutlined,
  FilterOutlined,
  EditOutlined,
  MergeCellsOutlined,
  UnorderedListOutlined,
  RetweetOutlined,
  SyncOutlined,
  PartitionOutlined,
} from "@ant-design/icons";
import type { ReactNode } from "react";
import type { NodeType } from "../model/types";

/** Each node type's icon and colour on the palette and the canvas. */
const META: Partial<Record<NodeType, { icon: ReactNode; color: string }>> = {
  start: { icon: <PlayCircleOutlined />, color: "#1677ff" },
  end: { icon: <FlagOutlined />, color: "#fa541c" },
  llm: { icon: <ThunderboltOutlined />, color: "#722ed1" },
  knowledge: { icon: <ReadOutlined />, color: "#13c2c2" },
  tool: { icon: <ApiOutlined />, color: "#2f54eb" },
  code: { icon: <CodeOutlined />, color: "#08979c" },
  http: { icon: <GlobalOutlined />, color: "#389e0d" },
  condition: { icon: <BranchesOutlined />, color: "#d48806" },
  template: { icon: <FileTextOutlined />, color: "#1d39c4" },
  answer: { icon: <MessageOutlined />, color: "#0958d9" },
  human: { icon: <UserOutlined />, color: "#d4380d" },
  agent: { icon: <RobotOutlined />, color: "#531dab" },
  classifier: { icon: <TagsOutlined />, color: "#c41d7f" },
  extractor: { icon: <FilterOutlined />, color: "#9254de" },
  assign: { icon: <EditOutlined />, color: "#7cb305" },
  aggregate: { icon: <MergeCellsOutlined />, color: "#5b8c00" },
  list: { icon: <UnorderedListOutlined />, color: "#006d75" },
  loop: { icon: <RetweetOutlined />, color: "#0050b3" },
  iteration: { icon: <SyncOutlined />, color: "#10239e" },
  subworkflow: { icon: <PartitionOutlined />, color: "#ad4e00" },
};

/** Types the palette does not offer (made elsewhere) share one look. */
export const nodeMeta = (type: NodeType) => META[type] ?? { icon: <AppstoreOutlined />, color: "#595959" };

/** The node type's coloured icon, as the palette and both node shapes show it. */
export function NodeIcon({ type, size = 24 }: { type: NodeType; size?: number }) {
  const meta = nodeMeta(type);
  return (
    <span
      style={{
        width: size,
        height: size,
        borderRadius: 6,
        background: meta.color,
        color: "#fff",
        display: "inline-flex",
        alignItems: "center",
        justifyContent: "center",
        flex: "none",
      }}
    >
      {meta.icon}
    </span>
  );
}

/** Border colours of a node's last run state. */
export const STATUS_COLOR: Record<string, string> = {
  RUNNING: "#1677ff",
  SUCCEEDED: "#52c41a",
  FAILED: "#ff4d4f",
  PAUSED: "#faad14",
  SKIPPED: "#bfbfbf",
  PENDING: "#d9d9d9",
};
