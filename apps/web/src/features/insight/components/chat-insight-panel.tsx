import { CHAT_INSIGHT_PAGE_SIZE, INSIGHT_AGENT_TYPE } from "@agentfair/contracts";
import { Empty, List, Select, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { relativeTime } from "../../../components/relative-time";
import { useMinePage } from "../../agents/api/mine-page";
import { useChatInsights } from "../api/chat-insights";
import { statusColor } from "./status";

const sentimentColor = { positive: "green", neutral: "default", negative: "red" } as const;

/** Chat insight: the owner picks one of their agents and reads the analyses of its conversations. */
export function ChatInsightPanel() {
  const { t } = useTranslation();
  // Searched on the server: the first page holds only the latest 99 of an owner's agents.
  const [name, setName] = useState("");
  const mine = useMinePage({ page: 1, name: name.trim() || undefined });
  const agents = (mine.data?.list ?? []).filter((a) => a.agentType !== INSIGHT_AGENT_TYPE);
  const [picked, setPicked] = useState<{ id: string; name: string }>();
  const [page, setPage] = useState(1);
  const agentId = picked?.id ?? agents[0]?.id;
  const options = agents.map((a) => ({ value: a.id, label: a.agentName }));
  if (picked && !options.some((o) => o.value === picked.id)) options.unshift({ value: picked.id, label: picked.name });
  const insights = useChatInsights(agentId, page);
  return (
    <div data-testid="chat-insight-panel">
      <Typography.Paragraph type="secondary">{t("insight.chat.hint")}</Typography.Paragraph>
      <Space style={{ marginBottom: 12 }}>
        <span>{t("insight.chat.agent")}</span>
        <Select
          style={{ minWidth: 240 }}
          placeholder={t("insight.chat.pickAgent")}
          value={agentId}
          loading={mine.isFetching}
          showSearch
          filterOption={false}
          onSearch={setName}
          options={options}
          onChange={(v) => {
            setPicked({ id: v, name: options.find((o) => o.value === v)?.label ?? "" });
            setName("");
            setPage(1);
          }}
          data-testid="chat-insight-agent"
        />
      </Space>
      <List
        loading={insights.isFetching && !insights.data}
        locale={{ emptyText: <Empty description={t("insight.chat.empty")} /> }}
        dataSource={insights.data?.list ?? []}
        pagination={
          (insights.data?.total ?? 0) > CHAT_INSIGHT_PAGE_SIZE
            ? { current: page, pageSize: CHAT_INSIGHT_PAGE_SIZE, total: insights.data?.total, onChange: setPage }
            : false
        }
        renderItem={(i) => (
          <List.Item
            data-testid="chat-insight-item"
            extra={<Typography.Text type="secondary">{relativeTime(i.updateTime)}</Typography.Text>}
          >
            <List.Item.Meta
              title={
                <Space wrap>
                  <Tag color={statusColor[i.status]}>{t(`insight.status.${i.status}`)}</Tag>
                  {i.analysis?.sentiment && (
                    <Tag color={sentimentColor[i.analysis.sentiment]} data-testid="chat-insight-sentiment">
                      {t("insight.chat.features.sentiment")}: {t(`insight.chat.sentiments.${i.analysis.sentiment}`)}
                    </Tag>
                  )}
                  <Typography.Text type="secondary">{t("insight.chat.messages", { count: i.messageCount })}</Typography.Text>
                </Space>
              }
              description={
                <div>
                  {i.error && <Typography.Text type="danger">{i.error}</Typography.Text>}
                  {i.analysis && (
                    <>
                      <Typography.Paragraph style={{ marginBottom: 4 }}>
                        <Typography.Text strong>{t("insight.chat.summary")}: </Typography.Text>
                        {i.analysis.summary}
                      </Typography.Paragraph>
                      {!!i.analysis.topics?.length && (
                        <div style={{ marginBottom: 4 }}>
                          <Typography.Text strong>{t("insight.chat.features.topics")}: </Typography.Text>
                          {i.analysis.topics.map((topic) => (
                            <Tag key={topic}>{topic}</Tag>
                          ))}
                        </div>
                      )}
                      {!!i.analysis.openQuestions?.length && (
                        <div>
                          <Typography.Text strong>{t("insight.chat.features.openQuestions")}:</Typography.Text>
                          <ul style={{ margin: "4px 0 0", paddingLeft: 20 }}>
                            {i.analysis.openQuestions.map((q) => (
                              <li key={q}>{q}</li>
                            ))}
                          </ul>
                        </div>
                      )}
                    </>
                  )}
                </div>
              }
            />
          </List.Item>
        )}
      />
    </div>
  );
}
