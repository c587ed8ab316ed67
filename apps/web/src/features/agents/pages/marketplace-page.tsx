import { AGENT_PAGE_SIZE, MARKET_MAX_PAGES } from "@agentfair/contracts";
import { Button, Col, Empty, Input, Pagination, Row, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useLaunchPage } from "../api/launch-page";
import { useUseCounts } from "../api/use-counts";
import { MarketCard } from "../components/market-card";
import { type TagFilter, TagBar } from "../components/tag-bar";
import { useCopyAgent } from "../components/use-copy-agent";

/** The agents the pages reach: the server serves ten pages of any list. */
const REACH = MARKET_MAX_PAGES * AGENT_PAGE_SIZE;

type MarketView = { name: string; filter: TagFilter; page: number };

const viewOf = (p: URLSearchParams): MarketView => ({
  name: p.get("q") ?? "",
  filter: {
    source: p.get("source") === "labels" ? "labels" : "tags",
    tag: p.get("tag") ?? undefined,
    labelId: p.get("label") ?? undefined,
  },
  page: Math.max(1, Number(p.get("page")) || 1),
});

const paramsOf = ({ name, filter, page }: MarketView) =>
  Object.fromEntries(
    Object.entries({
      q: name,
      source: filter.source === "labels" ? "labels" : "",
      tag: filter.tag ?? "",
      label: filter.labelId ?? "",
      page: page > 1 ? String(page) : "",
    }).filter(([, v]) => v),
  );

/** /index: the marketplace (doc 1 §2): tag bar, name search, a 4-column grid of 99 a page. */
export function MarketplacePage() {
  const { t, i18n } = useTranslation();
  // The search, the tag and the page are kept in the address too: back from an agent finds them again.
  const [params, setParams] = useSearchParams();
  const [view, setView] = useState(() => viewOf(params));
  const { name, filter, page } = view;
  const show = (next: Partial<MarketView>) => setView((v) => ({ ...v, page: 1, ...next }));
  useEffect(() => {
    setParams(paramsOf(view), { replace: true });
  }, [view, setParams]);
  const query = useLaunchPage({ name: name || undefined, tag: filter.tag as never, labelId: filter.labelId, page, size: AGENT_PAGE_SIZE });
  const list = query.data?.list ?? [];
  const total = query.data?.total ?? 0;
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
          defaultValue={name}
          onSearch={(v) => show({ name: v.trim() })}
          data-testid="market-search"
        />
      </div>
      <div style={{ marginBottom: 20 }}>
        <TagBar value={filter} onChange={(v) => show({ filter: v })} />
      </div>
      {total > 0 && (
        <Typography.Text type="secondary" style={{ display: "block", marginBottom: 12 }} data-testid="market-total">
          {t(query.data?.totalExact ? "agents.market.total" : "agents.market.totalMore", {
            count: total,
            n: total.toLocaleString(i18n.language),
          })}
          {total > REACH && t("agents.market.reach", { n: REACH.toLocaleString(i18n.language) })}
        </Typography.Text>
      )}
      <Spin spinning={query.isFetching && !query.isPlaceholderData}>
        {query.isError && !query.data ? (
          // A failed list says so and offers another try, instead of a blank page once the error toast is gone.
          <Empty description={t("agents.market.loadFailed")} style={{ padding: 64 }} data-testid="market-failed">
            <Button onClick={() => void query.refetch()}>{t("agents.market.retry")}</Button>
          </Empty>
        ) : query.isSuccess && list.length === 0 ? (
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
      {total > AGENT_PAGE_SIZE && (
        <Pagination
          style={{ marginTop: 24, textAlign: "center" }}
          current={page}
          pageSize={AGENT_PAGE_SIZE}
          total={Math.min(total, REACH)}
          showSizeChanger={false}
          onChange={(p) => show({ page: p })}
        />
      )}
    </div>
  );
}
