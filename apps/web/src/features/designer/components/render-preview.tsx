import { Alert, Empty, Input, Select, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ChatPanel } from "../../../components/chat/chat-panel";
import { type ChatBusEvents, createBus } from "../../../components/chat/event-bus";
import { useMyAgents } from "../api/my-agents";
import type { Widget } from "../model/widgets";
import { DesignRenderer } from "./design-renderer";

const parse = (text: string): { ok: true; value: unknown } | { ok: false } => {
  if (!text.trim()) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

/**
 * Render mode in the designer: a sample result feeds the form, and its buttons send into a chat
 * with one of the caller's agents (the same bus a chat reply's design uses). No agent is chosen
 * for the user: until one is, a button only shows the message it would send (send-chat-button's
 * text) and nothing is sent.
 */
export function RenderPreview(props: { widgets: Widget[]; sample: string; onSample: (s: string) => void; formId: string | null }) {
  const { t } = useTranslation();
  const bus = useMemo(() => createBus<ChatBusEvents>(), []);
  const agents = useMyAgents();
  const [agentId, setAgentId] = useState<string | null>(null);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const list = agents.data?.list ?? [];
  const agent = list.find((a) => a.id === agentId);
  // Without an agent the buttons' messages land here instead of in a chat.
  const [wouldSend, setWouldSend] = useState<string | null>(null);
  useEffect(() => {
    if (agent) return;
    const off = bus.on("send-chat-button", (e) => setWouldSend(e.text));
    return () => {
      off();
    };
  }, [bus, agent]);
  const parsed = parse(props.sample);
  const [result, setResult] = useState<unknown>(parsed.ok ? parsed.value : {});

  return (
    <div className="dz-preview">
      <div>
        <Typography.Text type="secondary">{t("designer.preview.sample")}</Typography.Text>
        <Input.TextArea
          value={props.sample}
          autoSize={{ minRows: 4, maxRows: 10 }}
          style={{ fontFamily: "monospace", fontSize: 12, margin: "6px 0 12px" }}
          onChange={(e) => {
            props.onSample(e.target.value);
            const next = parse(e.target.value);
            if (next.ok) setResult(next.value);
          }}
          aria-label={t("designer.preview.sample")}
          data-testid="design-sample"
        />
        {!parsed.ok && <Alert type="warning" showIcon title={t("designer.preview.badJson")} style={{ marginBottom: 12 }} />}
        <DesignRenderer design={props.widgets} result={result} bus={bus} formId={props.formId} dryRun={!agent} />
      </div>
      <div>
        <Select
          style={{ width: "100%", marginBottom: 8 }}
          value={agent?.id}
          placeholder={t("designer.preview.agent")}
          options={list.map((a) => ({ value: a.id, label: a.agentName }))}
          onChange={(id) => {
            setAgentId(id);
            setSessionId(null);
            setWouldSend(null);
          }}
          aria-label={t("designer.preview.agent")}
          data-testid="design-preview-agent"
        />
        <div className="dz-preview-chat" data-testid="design-preview-chat">
          {agent ? (
            <ChatPanel
              key={agent.id}
              agentId={agent.id}
              release={false}
              agent={{ agentName: agent.agentName, agentIcon: agent.agentIcon, agentIconBackground: agent.agentIconBackground }}
              sessionId={sessionId}
              onSession={(sid) => setSessionId(sid)}
              bus={bus}
            />
          ) : list.length > 0 ? (
            <div style={{ padding: 16 }} data-testid="design-preview-dry-run">
              <Typography.Paragraph type="secondary">{t("designer.preview.pickAgent")}</Typography.Paragraph>
              {wouldSend !== null && (
                <>
                  <Typography.Text strong>{t("designer.preview.wouldSend")}</Typography.Text>
                  <Typography.Paragraph
                    style={{ background: "#f5f5f5", borderRadius: 6, padding: "8px 12px", marginTop: 6, whiteSpace: "pre-wrap" }}
                    data-testid="design-preview-would-send"
                  >
                    {wouldSend}
                  </Typography.Paragraph>
                </>
              )}
            </div>
          ) : (
            <Empty
              style={{ margin: "auto" }}
              description={agents.isLoading ? t("designer.preview.loading") : t("designer.preview.noAgent")}
            />
          )}
        </div>
      </div>
    </div>
  );
}
