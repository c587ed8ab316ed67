import { PlusOutlined } from "@ant-design/icons";
import { PLUGIN_PAGE_SIZE, type Plugin } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, DatePicker, Input, Select, Space, Table, Tag, Typography } from "antd";
import type { Dayjs } from "dayjs";
import dayjs from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { useGates } from "../../auth/use-gates";
import { AgentIcon } from "../../../components/icon-picker/agent-icon";
import { deletePlugin } from "../api/delete-plugin";
import { type PluginPageQuery, toolsKey, usePluginPage } from "../api/plugin-page";
import { editorPath } from "../editor-path";
import { CreateToolModal } from "./create-tool-modal";
import { ImportToolsModal } from "./import-tools-modal";
import { ToolTypeTag } from "./tool-type-tag";

type Filters = { type: number; status: number; name: string; range: [Dayjs, Dayjs] | null };

/** The page's `type` query parameter is the initial type filter (doc 2 §2). */
function initialType(raw: string | null): number {
  const n = Number(raw);
  return [0, 1, 2, 3].includes(n) ? n : 0;
}

/** My tools (doc 2 §2 "Tools list"): create, import, filters, table, page size 20. */
export function MyTools() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const gates = useGates();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const empty: Filters = { type: initialType(params.get("type")), status: 0, name: "", range: null };
  const [draft, setDraft] = useState<Filters>(empty);
  const [applied, setApplied] = useState<Filters>(empty);
  const [page, setPage] = useState(0);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);

  const req: PluginPageQuery = {
    pluginName: applied.name.trim() || undefined,
    pageNumber: page,
    pluginTypes: applied.type,
    pluginStatus: applied.status,
    timeRangeStart: applied.range?.[0].startOf("day").toISOString(),
    timeRangeEnd: applied.range?.[1].endOf("day").toISOString(),
  };
  const query = usePluginPage(req);
  const rows = query.data?.content ?? [];
  const total = query.data?.totalElements ?? 0;

  const refresh = () => queryClient.invalidateQueries({ queryKey: toolsKey });
  const search = () => {
    setApplied(draft);
    setPage(0);
  };
  const reset = () => {
    const cleared: Filters = { type: 0, status: 0, name: "", range: null };
    setDraft(cleared);
    setApplied(cleared);
    setPage(0);
  };
  // Opening the editor is for administrators or the creator (the server's `editable`); MCP tools never open.
  const open = (p: Plugin) => {
    if (p.pluginType !== "MCP" && p.editable) navigate(editorPath(p));
  };
  const remove = (p: Plugin) =>
    modal.confirm({
      title: t("tools.list.confirmDelete"),
      okText: t("common.confirm"),
      cancelText: t("common.cancel"),
      onOk: async () => {
        await deletePlugin(p.id);
        message.success(t("tools.list.deleted"));
        // Step back when the last page became empty.
        if (rows.length === 1 && page > 0) setPage(page - 1);
        await refresh();
      },
    });
  const startCreate = () => {
    if (gates.requireLogin()) setCreating(true);
  };
  const startImport = () => {
    if (gates.requireLogin()) setImporting(true);
  };

  return (
    <div data-testid="my-tools">
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label={t("tools.list.type")}
          prefix={t("tools.list.type")}
          data-testid="tools-type-filter"
          style={{ width: 160 }}
          value={draft.type}
          onChange={(type) => setDraft({ ...draft, type })}
          options={[
            { value: 0, label: t("tools.list.all") },
            { value: 1, label: t("tools.list.plugin") },
            { value: 2, label: t("tools.list.workflow") },
            { value: 3, label: t("tools.list.mcp") },
          ]}
        />
        <Select
          aria-label={t("tools.list.status")}
          prefix={t("tools.list.status")}
          data-testid="tools-status-filter"
          style={{ width: 230 }}
          value={draft.status}
          onChange={(status) => setDraft({ ...draft, status })}
          options={[
            { value: 0, label: t("tools.list.all") },
            { value: 1, label: t("tools.list.unpublished") },
            { value: 2, label: t("tools.list.published") },
          ]}
        />
        <Input
          allowClear
          style={{ width: 200 }}
          placeholder={t("tools.list.namePlaceholder")}
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          onPressEnter={search}
        />
        <DatePicker.RangePicker value={draft.range} onChange={(v) => setDraft({ ...draft, range: v as [Dayjs, Dayjs] | null })} />
        <Button type="primary" onClick={search}>
          {t("tools.list.query")}
        </Button>
        <Button onClick={reset}>{t("tools.list.reset")}</Button>
        <Button type="primary" icon={<PlusOutlined />} onClick={startCreate}>
          {t("tools.list.create")}
        </Button>
        <Button onClick={startImport}>{t("tools.list.import")}</Button>
      </Space>
      <Table<Plugin>
        rowKey="id"
        size="middle"
        // Below ~960 px the fixed columns squeezed the edit time onto three lines and pushed the actions past the card.
        scroll={{ x: 960 }}
        loading={query.isFetching}
        dataSource={rows}
        onRow={(p) => ({ onDoubleClick: () => open(p), "data-testid": `tool-row-${p.pluginName}` }) as never}
        pagination={{
          current: page + 1,
          pageSize: PLUGIN_PAGE_SIZE,
          total,
          showSizeChanger: false,
          showTotal: (count) => t("tools.list.total", { count }),
          onChange: (p) => setPage(p - 1),
        }}
        columns={[
          { title: t("tools.list.index"), width: 70, render: (_v, _p, i) => page * PLUGIN_PAGE_SIZE + i + 1 },
          {
            title: t("tools.list.name"),
            render: (_v, p) => (
              <Space align="start">
                <AgentIcon icon={p.pluginIcon} background={p.pluginIconBackground} size={36} />
                <div style={{ minWidth: 0 }}>
                  <div style={{ fontWeight: 500 }}>{p.pluginName}</div>
                  <Typography.Text type="secondary" ellipsis style={{ maxWidth: 360, fontSize: 12 }}>
                    {p.pluginDescription}
                  </Typography.Text>
                </div>
              </Space>
            ),
          },
          { title: t("tools.list.typeTag"), width: 120, render: (_v, p) => <ToolTypeTag type={p.pluginType} /> },
          {
            title: t("tools.list.status"),
            width: 120,
            render: (_v, p) =>
              p.pluginType === "MCP" ? null : p.pluginStatus === "C90_Released" ? (
                <Tag color="success">{t("tools.list.published")}</Tag>
              ) : (
                <Tag>{t("tools.list.unpublished")}</Tag>
              ),
          },
          {
            title: t("tools.list.editTime"),
            width: 180,
            render: (_v, p) => dayjs(p.lastModifiedDate).format("YYYY-MM-DD HH:mm:ss"),
          },
          {
            title: t("tools.list.actions"),
            width: 140,
            render: (_v, p) => (
              <Space size={4}>
                {p.editable && p.pluginType !== "MCP" && (
                  <Button type="link" size="small" onClick={() => open(p)}>
                    {t("tools.list.edit")}
                  </Button>
                )}
                {(p.editable || (p.pluginType === "MCP" && !p.standard)) && (
                  <Button type="link" size="small" danger onClick={() => remove(p)}>
                    {t("tools.list.delete")}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <CreateToolModal
        open={creating}
        onClose={() => setCreating(false)}
        onMcpAdded={() => {
          // MCP tools open no editor: the list shows the server's tools instead.
          const mcp: Filters = { type: 3, status: 0, name: "", range: null };
          setDraft(mcp);
          setApplied(mcp);
          setPage(0);
        }}
      />
      <ImportToolsModal open={importing} onClose={() => setImporting(false)} onSaved={refresh} />
    </div>
  );
}
