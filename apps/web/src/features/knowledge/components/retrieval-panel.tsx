import type { RetrievalHit } from "@agentfair/contracts";
import { Alert, Button, Card, Col, Empty, Form, Input, InputNumber, List, Row, Select, Slider, Space, Switch, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRerankModels } from "../api/rerank-models";
import { retrievalTest } from "../api/retrieval";
import { validated } from "../../../lib/form";

interface RetrievalForm {
  query: string;
  vectorWeight: number;
  threshold: number;
  topK: number;
  rerank: boolean;
  rerankModelId?: string;
}

const score = (n: number) => n.toFixed(3);

/** Retrieval test: hybrid search over this base (optionally reranked), each hit with its keyword, vector, fused and rerank scores. */
export function RetrievalPanel({ baseId }: { baseId: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RetrievalForm>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ hits: RetrievalHit[]; vectorUsed: boolean; reranked: boolean; rerank: boolean } | null>(null);
  const rerank = Form.useWatch("rerank", form);
  const rerankModels = useRerankModels();

  const search = async () => {
    const v = await validated(form);
    if (!v) return;
    setBusy(true);
    try {
      const found = await retrievalTest(baseId, {
        query: v.query.trim(),
        topK: v.topK,
        vectorWeight: v.vectorWeight,
        threshold: v.threshold,
        rerank: v.rerank,
        rerankModelId: v.rerankModelId ?? null,
      });
      setResult({ ...found, rerank: v.rerank });
    } catch {
      // The http client has shown the message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t("knowledge.retrieval.title")} data-testid="retrieval-panel">
      <Form
        form={form}
        layout="vertical"
        initialValues={{ query: "", vectorWeight: 0.7, threshold: 0, topK: 5, rerank: false }}
        onFinish={search}
      >
        <Form.Item name="query" rules={[{ required: true, whitespace: true, message: t("knowledge.retrieval.query") }]}>
          <Input.TextArea rows={3} maxLength={2000} placeholder={t("knowledge.retrieval.query")} data-testid="retrieval-query" />
        </Form.Item>
        <Row gutter={16}>
          <Col span={9}>
            <Form.Item name="vectorWeight" label={t("knowledge.retrieval.vectorWeight")}>
              <Slider min={0} max={1} step={0.05} />
            </Form.Item>
          </Col>
          <Col span={9}>
            <Form.Item name="threshold" label={t("knowledge.retrieval.threshold")}>
              <Slider min={0} max={1} step={0.05} />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="topK" label={t("knowledge.retrieval.topK")}>
              <InputNumber min={1} max={50} style={{ width: "100%" }} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16} align="middle">
          <Col span={9}>
            <Form.Item name="rerank" label={t("knowledge.retrieval.rerank")} valuePropName="checked">
              <Switch data-testid="retrieval-rerank" />
            </Form.Item>
          </Col>
          <Col span={15}>
            <Form.Item name="rerankModelId" label={t("knowledge.retrieval.rerankModel")}>
              <Select
                allowClear
                disabled={!rerank}
                loading={rerankModels.isLoading}
                placeholder={t("knowledge.retrieval.rerankModelDefault")}
                notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("knowledge.retrieval.noRerankModel")} />}
                showSearch={{ optionFilterProp: "label" }}
                options={(rerankModels.data ?? []).map((m) => ({ value: m.id, label: m.name }))}
                data-testid="retrieval-rerank-model"
              />
            </Form.Item>
          </Col>
        </Row>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="retrieval-run">
          {t("knowledge.retrieval.run")}
        </Button>
      </Form>
      {result && (
        <div style={{ marginTop: 16 }}>
          {!result.vectorUsed && <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t("knowledge.retrieval.keywordOnly")} />}
          {result.rerank && !result.reranked && result.hits.length > 0 && (
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t("knowledge.retrieval.notReranked")} />
          )}
          {result.hits.length === 0 ? (
            <Empty description={t("knowledge.retrieval.noHits")} />
          ) : (
            <List
              bordered
              size="small"
              header={t("knowledge.retrieval.hits", { count: result.hits.length })}
              dataSource={result.hits}
              data-testid="retrieval-hits"
              renderItem={(h, i) => (
                <List.Item data-testid="retrieval-hit">
                  <div style={{ width: "100%" }}>
                    <Space wrap size={4} style={{ marginBottom: 4 }}>
                      <Tag>#{i + 1}</Tag>
                      <Tag color="green" data-testid="hit-score">
                        {t("knowledge.retrieval.score")} {score(h.score)}
                      </Tag>
                      <Tag color="blue">
                        {t("knowledge.retrieval.keywordScore")} {score(h.keywordScore)}
                      </Tag>
                      <Tag color="purple">
                        {t("knowledge.retrieval.vectorScore")} {score(h.vectorScore)}
                      </Tag>
                      {h.rerankScore !== undefined && (
                        <Tag color="gold" data-testid="hit-rerank-score">
                          {t("knowledge.retrieval.rerankScore")} {score(h.rerankScore)}
                        </Tag>
                      )}
                      {(h.fileName || h.title) && (
                        <Typography.Text type="secondary">{[h.fileName, h.title].filter(Boolean).join(" · ")}</Typography.Text>
                      )}
                    </Space>
                    <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }} ellipsis={{ rows: 4, expandable: true }}>
                      {h.question ? `Q: ${h.question}\nA: ${h.answer ?? ""}` : h.content}
                    </Typography.Paragraph>
                  </div>
                </List.Item>
              )}
            />
          )}
        </div>
      )}
    </Card>
  );
}
