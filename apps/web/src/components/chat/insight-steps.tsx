import { CheckCircleFilled, DownloadOutlined, FileSearchOutlined, LoadingOutlined } from "@ant-design/icons";
import {
  INSIGHT_FAILED_CODE,
  INSIGHT_POLL_INTERVAL_MS,
  INSIGHT_POLL_MAX_TRIES,
  type InsightStepItem,
  type InsightUrlResult,
} from "@agentfair/contracts";
import { Alert, App, Button, Space, Timeline } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { API, HttpError, http } from "../../lib/http";
import { downloadReport } from "../../lib/report-file";
import { routerBase } from "../../lib/tenant";

/** A report agent's steps (doc 2 §3 Message insightStep): title, done flag, and what each step learned. */
export function InsightSteps({ steps }: { steps: InsightStepItem[] }) {
  return (
    <Timeline
      className="chat-insight-steps"
      items={steps.map((s, i) => ({
        key: `${i}-${s.title}`,
        dot: s.isEnd ? <CheckCircleFilled style={{ color: "#52c41a" }} /> : <LoadingOutlined />,
        content: (
          <div data-testid="insight-step">
            <div style={{ fontWeight: 500 }}>{s.title}</div>
            {s.stepList
              .filter((x) => x.learning)
              .map((x, k) => (
                <div key={`${k}-${x.url}`} style={{ color: "rgba(0,0,0,0.55)", fontSize: 13 }}>
                  {x.learning}
                </div>
              ))}
          </div>
        ),
      }))}
    />
  );
}

export type InsightPoll =
  | { state: "polling"; steps: InsightStepItem[] }
  | { state: "ready"; steps: InsightStepItem[]; url: string; reportId: string; category: string | null }
  | { state: "failed"; steps: InsightStepItem[]; msg: string }
  | { state: "timeout"; steps: InsightStepItem[] };

/**
 * Follows a report through GET get_insight_url: every 2 s, at most 90 tries; it stops when the
 * url comes, on code 500 (the report failed), or when the tries run out (doc 2 §5, §7).
 */
export function useInsightPoll(sessionId: string | undefined, messageId: string | undefined, initial: InsightStepItem[]) {
  const [poll, setPoll] = useState<InsightPoll>({ state: "polling", steps: initial });
  const initialRef = useRef(initial);
  useEffect(() => {
    if (!sessionId) return;
    let stopped = false;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      if (stopped) return;
      tries += 1;
      try {
        const r = await http.get<InsightUrlResult>(
          `${API.runtime}/get_insight_url`,
          { session_id: sessionId, message_id: messageId },
          { silent: true, keepOnNavigate: true },
        );
        if (stopped) return;
        if (r.url) return setPoll({ state: "ready", steps: r.insightStep, url: r.url, reportId: r.reportId, category: r.category });
        setPoll({ state: "polling", steps: r.insightStep });
      } catch (err) {
        if (stopped) return;
        if (err instanceof HttpError && err.code === INSIGHT_FAILED_CODE)
          return setPoll((p) => ({ state: "failed", steps: p.steps.map((s) => ({ ...s, isEnd: true })), msg: err.message }));
      }
      if (tries >= INSIGHT_POLL_MAX_TRIES) return setPoll((p) => ({ state: "timeout", steps: p.steps }));
      timer = setTimeout(tick, INSIGHT_POLL_INTERVAL_MS);
    };
    // A reopened reply whose steps all ended asks at once: its report is most likely ready.
    const settled = initialRef.current.length > 0 && initialRef.current.every((s) => s.isEnd);
    timer = setTimeout(tick, settled ? 0 : INSIGHT_POLL_INTERVAL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sessionId, messageId]);
  return poll;
}

/** The report page in a new tab, under the tenant's route base. */
export const openReport = (url: string) => window.open(`${routerBase().replace(/\/$/, "")}${url}`, "_blank", "noopener");

const FILE_OF: Record<string, "docx" | "pptx"> = { chatWord: "docx", chatPPT: "pptx" };

/** A reply of a report agent: its steps as they come, then the button to the report (without a session: the steps only). */
export function InsightProgress({ sessionId, messageId, steps }: { sessionId?: string; messageId?: string; steps: InsightStepItem[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const poll = useInsightPoll(sessionId, messageId, steps);
  // chatWord and chatPPT answer with their file: offered beside the report page.
  const file = poll.state === "ready" ? FILE_OF[poll.category ?? ""] : undefined;
  return (
    <div className="chat-insight" data-testid="insight-progress" data-state={poll.state}>
      <InsightSteps steps={poll.steps} />
      {poll.state === "ready" && (
        <Space wrap>
          <Button type="primary" icon={<FileSearchOutlined />} onClick={() => openReport(poll.url)} data-testid="open-report">
            {t("insight.open")}
          </Button>
          {file && (
            <Button
              icon={<DownloadOutlined />}
              data-testid="download-report"
              onClick={() => downloadReport(poll.reportId, file).catch(() => message.error(t("insight.exportFailed")))}
            >
              {t(`insight.download.${file}`)}
            </Button>
          )}
        </Space>
      )}
      {poll.state === "failed" && <Alert type="error" showIcon title={poll.msg} />}
      {poll.state === "timeout" && <Alert type="warning" showIcon title={t("insight.timeout")} />}
    </div>
  );
}
