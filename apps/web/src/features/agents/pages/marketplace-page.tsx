import { AGENT_PAGE_SIZE } from "@agentfair/contracts";
import { Col, Empty, Input, Pagination, Row, Spin, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLaunchPage } from "../api/launch-page";
import { useUseCounts } from "../api/use-counts";
import { MarketCard } from "../components/market-card";
import { type TagFilter, TagBar } from "../components/tag-bar";
import { useCopyAgent } from "../components/use-copy-agent";

/** /index: the marketplace (doc 1 §2): tag bar, name search, a 4-column grid of 99 a page. */
export function MarketplacePage() {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [filter, setFilter] = useState<TagFilter>({ source: "tags" });
  const [page, setPage] = useState(1);
  const query = useLaunchPage({ name: name || undefined, tag: filter.tag as never, labelId: filter.labelId, page, size: AGENT_PAGE_SIZE });
  const list = query.data?.list ?? [];
  const counts = useUseCounts(list.map((a) => a.id));
  const copy = useCopyAgent();

  return (
    <div style={{ maxWidth: 1280, margin: "0 auto" }}>
      <div
        style={{ display: "flex", alignItems: "flex-end", justifyContent: "space-between", gap: 16, marginBottom: 16, flexWrap: "wrap" }}
      >
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t("agents.market.title")}
          </Typography.Title>
          <Typography.Text type="secondary">{t("agents.market.subtitle")}</Typography.Text>
        </div>
        <Input.Search
          allowClear
          placeholder={t("agents.market.search")}
          style={{ width: 320 }}
          onSearch={(v) => {
            setName(v.trim());
            setPage(1);
          }}
          data-testid="market-search"
        />
      </div>
      <div style={{ marginBottom: 20 }}>
        <TagBar
          value={filter}
          onChange={(v) => {
            setFilter(v);
            setPage(1);
          }}
        />
      </div>
      <Spin spinning={query.isFetching && !query.isPlaceholderData}>
        {query.isSuccess && list.length === 0 ? (
          <Empty description={t("agents.market.noData")} style={{ padding: 64 }} />
        ) : (
          <Row gutter={[16, 16]}>
            {list.map((a) => (
              <Col key={a.id} xs={24} sm={12} md={8} lg={6}>
                <MarketCard agent={a} taskNum={counts.data?.get(a.id) ?? a.taskNum} onCopy={() => copy(a.id)} />
              </Col>
            ))}
          </Row>
        )}
      </Spin>
      {(query.data?.total ?? 0) > AGENT_PAGE_SIZE && (
        <Pagination
          style={{ marginTop: 24, textAlign: "center" }}
          current={page}
          pageSize={AGENT_PAGE_SIZE}
          total={query.data?.total}
          showSizeChanger={false}
          onChange={setPage}
        />
      )}
    </div>
  );
}
