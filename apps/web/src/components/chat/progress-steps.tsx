import {
  BulbOutlined,
  CheckCircleOutlined,
  CloseCircleOutlined,
  FileSearchOutlined,
  LineChartOutlined,
  SearchOutlined,
  StopOutlined,
  ThunderboltOutlined,
} from "@ant-design/icons";
import { Progress } from "antd";
import { useTranslation } from "react-i18next";

const ICONS = [
  <BulbOutlined key="0" />,
  <SearchOutlined key="1" />,
  <FileSearchOutlined key="2" />,
  <LineChartOutlined key="3" />,
  <ThunderboltOutlined key="4" />,
];

/**
 * Agent progress: steps 0–4 (thinking, searching information, analyzing, generating result,
 * reflected deeply), each with an icon, a step text and a bar by percent; with no step number the
 * text is "thinking"; a stopped reply shows "conversation terminated", a failed one says so.
 */
export function ProgressSteps({
  stepNum,
  percent,
  stopped,
  failed,
  done,
}: {
  stepNum?: number;
  percent?: number;
  stopped?: boolean;
  failed?: boolean;
  done?: boolean;
}) {
  const { t } = useTranslation();
  const steps = t("chat.steps", { returnObjects: true }) as string[];
  const step = stepNum === undefined ? undefined : Math.max(0, Math.min(4, stepNum));
  const text = failed ? t("chat.failed") : stopped ? t("chat.stepTerminated") : step === undefined ? t("chat.thinking") : steps[step];
  const icon = failed ? (
    <CloseCircleOutlined />
  ) : stopped ? (
    <StopOutlined />
  ) : done ? (
    <CheckCircleOutlined />
  ) : step === undefined ? (
    ICONS[0]
  ) : (
    ICONS[step]
  );
  return (
    <div className={`chat-progress${failed ? " chat-progress-failed" : ""}`} data-testid="chat-progress">
      <span className="chat-progress-icon">{icon}</span>
      <span className="chat-progress-text">{text}</span>
      <Progress
        percent={done ? 100 : Math.round(percent ?? 0)}
        size="small"
        showInfo={false}
        status={failed || stopped ? "exception" : done ? "success" : "active"}
        style={{ width: 120, margin: 0 }}
      />
    </div>
  );
}
