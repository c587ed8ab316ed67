import type { PluginType } from "@agentfair/contracts";
import { Tag } from "antd";
import { useTranslation } from "react-i18next";

const COLORS: Record<PluginType, string> = {
  HTTP: "blue",
  JAVASCRIPT: "gold",
  PYTHON3: "green",
  MCP: "purple",
  WORKFLOW: "cyan",
};

export function ToolTypeTag({ type }: { type: PluginType }) {
  const { t } = useTranslation();
  return <Tag color={COLORS[type]}>{t(`tools.types.${type}`)}</Tag>;
}
