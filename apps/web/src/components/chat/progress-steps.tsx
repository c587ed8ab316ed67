import {
  BulbOutlined,
  CheckCircleOutlined,
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
 * text is "thinking"; a stopped reply shows "conversation terminated".
 */
export function ProgressSteps({
  stepNum,
  percent,
  stopped,
  done,
}: {
  stepNum?: number;
  percent?: number;
  stopped?: boolean;
  done?: boolean;
}) {
  const { t } = useTranslation();
  const steps = t("chat.steps", { returnObjects: true }) as string[];
  const step = stepNum === undefined ? undefined : Math.max(0, Math.min(4, stepNum));
  const text = stopped ? t("chat.stepTerminated") : step === undefined ? t("chat.thinking") : steps[step];
  const icon = stopped ? <StopOutlined /> : done ? <CheckCircleOutlined /> : step === undefined ? ICONS[0] : ICONS[step];
  return (
    <div className="chat-progress" data-testid="chat-progress">
      <span className="chat-progress-icon">{icon}</span>
      <span className="chat-progress-text">{text}</span>
      <Progress
        percent={done ? 100 : Math.round(percent ?? 0)}
        size="small"
        showInfo={false}
        status={stopped ? "exception" : done ? "success" : "active"}
        style={{ width: 120, margin: 0 }}
      />
    </div>
  );
}
