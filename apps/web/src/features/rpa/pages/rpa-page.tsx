import { RPA_PAGE_SIZE } from "@agentfair/contracts";
import { Card, Col, Empty, Pagination, Result, Row, Spin } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LivePlayer } from "../../../components/live/live-player";
import { PageTitle } from "../../../components/page-title";
import { usePlatformSettings } from "../../auth/api/platform-settings";
import { useLiveList } from "../api/live-list";

/** Whether this deployment host offers /rpa (RPA_HOST on the server). */
export const rpaOffered = (rpaHost: string) => !!rpaHost && (window.location.host === rpaHost || window.location.hostname === rpaHost);

/** /rpa: the live streams of the caller's tenant's robots in a two-column grid (doc 2 §2). */
export function RpaPage() {
  const { t } = useTranslation();
  const settings = usePlatformSettings();
  const offered = !!settings.data && rpaOffered(settings.data.rpaHost);
  const [pageNo, setPageNo] = useState(1);
  const list = useLiveList(pageNo, offered);
  if (settings.isLoading) return <Spin />;
  if (!offered) return <Result status="404" title="404" subTitle={t("rpa.notOffered")} />;
  const rows = list.data?.rows ?? [];
  return (
    <div style={{ maxWidth: 1200, margin: "0 auto" }}>
      <Card title={<PageTitle title={t("rpa.title")} subtitle={t("rpa.subtitle")} />}>
        {list.isLoading ? (
          <Spin />
        ) : rows.length === 0 ? (
          <Empty description={t("rpa.empty")} />
        ) : (
          <Row gutter={[16, 16]}>
            {rows.map((r) => (
              <Col xs={24} md={12} key={r.rpaRobot.id}>
                <div className="rpa-live-cell" data-robot={r.rpaRobot.robotName}>
                  <LivePlayer flvUrl={r.playInfo} controls={r.playControls} id={`rpa-live-${r.rpaRobot.id}`} />
                  <div style={{ marginTop: 8, fontWeight: 500 }}>{r.rpaRobot.robotName}</div>
                </div>
              </Col>
            ))}
          </Row>
        )}
        {(list.data?.total ?? 0) > RPA_PAGE_SIZE && (
          <Pagination
            style={{ marginTop: 16, textAlign: "right" }}
            current={pageNo}
            pageSize={RPA_PAGE_SIZE}
            total={list.data?.total}
            onChange={setPageNo}
          />
        )}
      </Card>
    </div>
  );
}
