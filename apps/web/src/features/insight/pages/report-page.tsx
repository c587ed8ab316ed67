import { DownloadOutlined, EditOutlined, ReloadOutlined, ShareAltOutlined } from "@ant-design/icons";
import { type InsightReport, REPORT_EXPORT_FORMATS, type ReportExportFormat, reportSharedUrl } from "@agentfair/contracts";
import { App as AntApp, Alert, Button, Card, Dropdown, Empty, Layout, List, Space, Spin, Tag, Typography } from "antd";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation, useSearchParams } from "react-router";
import { LanguageSwitch } from "../../../components/language-switch";
import { relativeTime } from "../../../components/relative-time";
import { getReportToken, getToken } from "../../../lib/storage";
import { routerBase } from "../../../lib/tenant";
import { exportReport, refreshReport, shareReport, useReport, useReportsOfAgent } from "../api/reports";
import { ReportEditor } from "../components/report-editor";
import { ReportView } from "../components/report-view";
import { statusColor } from "../components/status";

function ReportActions({ report, onEdit, onSaved }: { report: InsightReport; onEdit: () => void; onSaved: (r: InsightReport) => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [refreshing, setRefreshing] = useState(false);
  if (report.status !== "DONE") return null;
  const refresh = async () => {
    setRefreshing(true);
    try {
      onSaved(await refreshReport(report.id));
      message.success(t("insight.builder.refreshed"));
    } catch {
      // the http client has shown why
    } finally {
      setRefreshing(false);
    }
  };
  const download = (format: ReportExportFormat) => exportReport(report.id, format).catch(() => message.error(t("insight.exportFailed")));
  const share = async () => {
    const { shareToken } = await shareReport(report.id);
    const url = `${window.location.origin}${routerBase().replace(/\/$/, "")}${reportSharedUrl(shareToken)}`;
    await navigator.clipboard?.writeText(url).catch(() => undefined);
    message.success(t("insight.shareCopied"));
  };
  return (
    <Space wrap>
      <Button icon={<EditOutlined />} onClick={onEdit} data-testid="report-edit">
        {t("insight.builder.edit")}
      </Button>
      <Button icon={<ReloadOutlined />} loading={refreshing} onClick={refresh} data-testid="report-refresh">
        {t("insight.builder.refresh")}
      </Button>
      <Dropdown
        menu={{
          items: REPORT_EXPORT_FORMATS.map((f) => ({ key: f, label: t(`insight.exportAs.${f}`), onClick: () => download(f) })),
        }}
      >
        <Button icon={<DownloadOutlined />} data-testid="report-export">
          {t("insight.export")}
        </Button>
      </Dropdown>
      <Button icon={<ShareAltOutlined />} onClick={share} data-testid="report-share">
        {t("insight.share")}
      </Button>
    </Space>
  );
}

function ReportPanel({ id, shareToken }: { id?: string; shareToken?: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const report = useReport({ id, shareToken });
  const [editing, setEditing] = useState("");
  if (report.isLoading) return <Spin />;
  if (!report.data) return <Empty description={t("insight.pickReport")} />;
  const r = report.data;
  // The saved report is shown at once; the lists (titles) are read again.
  const saved = (next: InsightReport) => {
    queryClient.setQueryData(["insight", "report", { id, shareToken }], next);
    void queryClient.invalidateQueries({ queryKey: ["insight", "byAgent"] });
    void queryClient.invalidateQueries({ queryKey: ["insight", "recent"] });
  };
  return (
    <Card
      title={
        <Space direction="vertical" size={0} style={{ padding: "8px 0" }}>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="report-title">
            {r.title}
          </Typography.Title>
          <Typography.Text type="secondary" style={{ fontWeight: "normal" }}>
            {t("insight.question")}
            {t("common.colon")}
            {r.question} · {relativeTime(r.createdTime)}
            {/* (the build itself updates the report: said only when it reads differently) */}
            {relativeTime(r.updateTime) !== relativeTime(r.createdTime) &&
              ` · ${t("insight.builder.updated", { time: relativeTime(r.updateTime) })}`}
          </Typography.Text>
        </Space>
      }
      extra={!shareToken && editing !== r.id && <ReportActions report={r} onEdit={() => setEditing(r.id)} onSaved={saved} />}
    >
      {shareToken && <Alert type="info" showIcon title={t("insight.sharedHint")} style={{ marginBottom: 16 }} />}
      {!shareToken && editing === r.id ? (
        <ReportEditor
          report={r}
          onDone={(next) => {
            if (next) saved(next);
            setEditing("");
          }}
        />
      ) : (
        <ReportView report={r} />
      )}
    </Card>
  );
}

/**
 * The report agent page (doc 1 §2: projectId, name and type=10, in a new tab) lists the agent's
 * reports beside the chosen one; /insight-detail?id= shows one report; ?share= opens a report
 * read-only for a share-link holder. Report calls carry the report token of the second cookie.
 */
export function ReportPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const shareToken = params.get("share") ?? undefined;
  const projectId = params.get("projectId") ?? "";
  const [picked, setPicked] = useState(params.get("reportId") ?? params.get("id") ?? "");
  const signedIn = !!(getReportToken() ?? getToken());
  const list = useReportsOfAgent(shareToken || !signedIn ? "" : projectId);
  useEffect(() => {
    if (!picked && list.data?.[0]) setPicked(list.data[0].id);
  }, [list.data, picked]);
  if (!shareToken && !signedIn)
    return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return (
    <Layout style={{ minHeight: "100vh" }}>
      <Layout.Header
        style={{ background: "#fff", display: "flex", alignItems: "center", justifyContent: "space-between", paddingInline: 24 }}
      >
        <Typography.Title level={4} style={{ margin: 0 }}>
          {params.get("name") || t("insight.title")}
        </Typography.Title>
        <LanguageSwitch />
      </Layout.Header>
      <Layout>
        {projectId && !shareToken && (
          <Layout.Sider width={280} theme="light" style={{ padding: 12, borderRight: "1px solid #f0f0f0" }}>
            <Typography.Text strong>{t("insight.reports")}</Typography.Text>
            <List
              locale={{ emptyText: <Empty description={t("insight.noReports")} /> }}
              dataSource={list.data ?? []}
              renderItem={(r) => (
                <List.Item
                  onClick={() => setPicked(r.id)}
                  style={{ cursor: "pointer", background: r.id === picked ? "#e6f4ff" : undefined, paddingInline: 8 }}
                  data-testid="agent-report-item"
                >
                  <List.Item.Meta
                    title={<Typography.Text ellipsis>{r.title}</Typography.Text>}
                    description={<Tag color={statusColor[r.status]}>{t(`insight.status.${r.status}`)}</Tag>}
                  />
                </List.Item>
              )}
            />
          </Layout.Sider>
        )}
        <Layout.Content style={{ padding: 24 }}>
          <ReportPanel id={picked || undefined} shareToken={shareToken} />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
