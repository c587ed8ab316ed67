import type { PluginTestResult } from "@agentfair/contracts";
import { Alert, Button, Descriptions, Input, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { testPlugin } from "../api/test-plugin";

/** Params as a JSON object, or null when the text is not one. */
export function parseParams(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text.trim() || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Test-run panel: params JSON in, the run's ok, result, status, duration, error and logs out. */
export function TestPanel({
  id,
  beforeRun,
  onTested,
}: {
  id: string;
  /** Saves pending edits first (a test runs the saved definition); false stops the run. */
  beforeRun: () => Promise<boolean>;
  onTested: (r: PluginTestResult) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState("{}");
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<PluginTestResult | null>(null);
  const params = parseParams(text);

  const run = async () => {
    if (!params) return;
    setRunning(true);
    try {
      if (!(await beforeRun())) return;
      const r = await testPlugin(id, params);
      setResult(r);
      onTested(r);
    } catch {
      // the http client has shown the server's message
    } finally {
      setRunning(false);
    }
  };

  return (
    <div data-testid="test-panel">
      <Typography.Text strong>{t("tools.editor.testParams")}</Typography.Text>
      <Input.TextArea
        data-testid="test-params"
        rows={5}
        value={text}
        onChange={(e) => setText(e.target.value)}
        status={params ? undefined : "error"}
        style={{ fontFamily: "monospace", marginTop: 8 }}
      />
      {!params && <Typography.Text type="danger">{t("tools.editor.badJson")}</Typography.Text>}
      <div style={{ margin: "12px 0" }}>
        <Button type="primary" onClick={run} loading={running} disabled={!params} data-testid="test-run">
          {t("tools.editor.run")}
        </Button>
      </div>
      {result && (
        <div data-testid="test-result">
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label={t("tools.editor.test")}>
              {result.ok ? <Tag color="success">{t("tools.editor.ok")}</Tag> : <Tag color="error">{t("tools.editor.failed")}</Tag>}
            </Descriptions.Item>
            {result.status > 0 && <Descriptions.Item label={t("tools.editor.statusCode")}>{result.status}</Descriptions.Item>}
            <Descriptions.Item label={t("tools.editor.duration")}>{result.durationMs} ms</Descriptions.Item>
            {result.request && (
              <Descriptions.Item label="URL">
                {result.request.method} {result.request.url}
              </Descriptions.Item>
            )}
          </Descriptions>
          {result.error && <Alert style={{ marginTop: 8 }} type="error" message={result.error} />}
          <Typography.Text strong style={{ display: "block", marginTop: 8 }}>
            {t("tools.editor.result")}
          </Typography.Text>
          <pre data-testid="test-output" style={{ background: "#f6f8fa", padding: 8, maxHeight: 240, overflow: "auto", fontSize: 12 }}>
            {JSON.stringify(result.result, null, 2)}
          </pre>
          {result.logs.length > 0 && (
            <>
              <Typography.Text strong>{t("tools.editor.logs")}</Typography.Text>
              <pre style={{ background: "#f6f8fa", padding: 8, maxHeight: 160, overflow: "auto", fontSize: 12 }}>
                {result.logs.join("\n")}
              </pre>
            </>
          )}
        </div>
      )}
    </div>
  );
}
