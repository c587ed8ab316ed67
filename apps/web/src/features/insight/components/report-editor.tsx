import { ArrowDownOutlined, ArrowUpOutlined } from "@ant-design/icons";
import { type InsightReport, REPORT_VIEWS, type ReportView, reportViewOf } from "@agentfair/contracts";
import { Button, Card, Input, Segmented, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { updateReport } from "../api/reports";

interface Item {
  from: number;
  title: string;
  kind: InsightReport["blocks"][number]["kind"];
  view: ReportView | null;
}

/**
 * The report builder: the owner reorders, retitles and redraws (bar, line, pie, table) a finished
 * report's blocks and saves them on the server, which redraws each from the data it holds.
 */
export function ReportEditor({ report, onDone }: { report: InsightReport; onDone: (saved?: InsightReport) => void }) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(report.title);
  const [items, setItems] = useState<Item[]>(() =>
    report.blocks.map((b, from) => ({ from, title: b.title, kind: b.kind, view: reportViewOf(b) })),
  );
  const [saving, setSaving] = useState(false);
  const patch = (i: number, change: Partial<Item>) => setItems((list) => list.map((it, k) => (k === i ? { ...it, ...change } : it)));
  const move = (i: number, by: -1 | 1) =>
    setItems((list) => {
      const next = [...list];
      [next[i], next[i + by]] = [next[i + by], next[i]];
      return next;
    });
  const blank = !title.trim() || items.some((it) => !it.title.trim());
  const save = async () => {
    setSaving(true);
    try {
      const saved = await updateReport({
        id: report.id,
        updateTime: report.updateTime,
        title: title.trim(),
        blocks: items.map(({ from, title, view }) => ({ from, title: title.trim(), ...(view ? { view } : {}) })),
      });
      onDone(saved);
    } catch {
      // the http client has shown why
    } finally {
      setSaving(false);
    }
  };
  return (
    <Space direction="vertical" style={{ width: "100%" }} size="middle" data-testid="report-editor">
      <div>
        <Typography.Text strong>{t("insight.builder.reportTitle")}</Typography.Text>
        <Input
          value={title}
          maxLength={200}
          onChange={(e) => setTitle(e.target.value)}
          status={title.trim() ? undefined : "error"}
          data-testid="report-title-input"
        />
      </div>
      {items.map((it, i) => (
        <Card key={it.from} size="small" data-testid="report-editor-block">
          <div style={{ display: "flex", gap: 8, alignItems: "center", flexWrap: "wrap" }}>
            <Tag>{t(`insight.kinds.${it.kind}`)}</Tag>
            <Input
              value={it.title}
              maxLength={200}
              onChange={(e) => patch(i, { title: e.target.value })}
              status={it.title.trim() ? undefined : "error"}
              style={{ flex: 1, minWidth: 200 }}
              aria-label={t("insight.builder.blockTitle")}
              data-testid="block-title-input"
            />
            {it.view && (
              <Segmented
                value={it.view}
                onChange={(v) => patch(i, { view: v as ReportView })}
                options={REPORT_VIEWS.map((v) => ({ value: v, label: t(`insight.builder.views.${v}`) }))}
                data-testid="block-view"
              />
            )}
            <Button
              icon={<ArrowUpOutlined />}
              disabled={i === 0}
              onClick={() => move(i, -1)}
              aria-label={t("insight.builder.up")}
              data-testid="block-up"
            />
            <Button
              icon={<ArrowDownOutlined />}
              disabled={i === items.length - 1}
              onClick={() => move(i, 1)}
              aria-label={t("insight.builder.down")}
              data-testid="block-down"
            />
          </div>
        </Card>
      ))}
      <Space>
        <Button type="primary" loading={saving} disabled={blank} onClick={save} data-testid="report-save">
          {t("insight.builder.save")}
        </Button>
        <Button onClick={() => onDone()}>{t("insight.builder.cancel")}</Button>
      </Space>
    </Space>
  );
}
