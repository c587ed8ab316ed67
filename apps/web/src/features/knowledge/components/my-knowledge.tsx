import { PlusOutlined } from "@ant-design/icons";
import { KNOWLEDGE_PAGE_SIZE, KNOWLEDGE_PAGE_SIZES, type KnowledgeBase } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Input, Popconfirm, Space, Table, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { stepBackPage } from "../../agents/paging";
import { getToken } from "../../../lib/storage";
import { deleteKnowledge } from "../api/delete-knowledge";
import { useKnowledgePage } from "../api/knowledge-page";
import { formatTime } from "../format";
import { KnowledgeModal } from "./knowledge-modal";

/** The /home tab "My knowledge bases" (doc 2 §2 Knowledge base list). */
export function MyKnowledge() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(KNOWLEDGE_PAGE_SIZE);
  const [modal, setModal] = useState<{ base: KnowledgeBase | null } | null>(null);
  const query = useKnowledgePage({ name: name || undefined, page, limit });
  const list = query.data?.list ?? [];
  const total = query.data?.total ?? 0;

  // When the last page empties after a delete, step back to the new last page (doc 2 §2).
  useEffect(() => {
    if (!query.isSuccess || query.isPlaceholderData) return;
    const back = stepBackPage(page, list.length, total, limit);
    if (back !== null) setPage(back);
  }, [query.isSuccess, query.isPlaceholderData, list.length, page, total, limit]);

  // Creating needs a sign-in; the login page brings the visitor back here.
  const create = () => {
    if (getToken()) setModal({ base: null });
    else navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["knowledge", "page"] });
  const remove = async (base: KnowledgeBase) => {
    await deleteKnowledge([base.id]);
    message.success(t("knowledge.list.deleted"));
    await refresh();
  };

  return (
    <div>
      <div style={{ display: "flex", justifyContent: "space-between", gap: 12, marginBottom: 16, flexWrap: "wrap" }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={create} data-testid="create-knowledge">
          {t("knowledge.list.create")}
        </Button>
        <Input.Search
          allowClear
          placeholder={t("knowledge.list.search")}
          style={{ width: 260 }}
          onSearch={(v) => {
            setName(v.trim());
            setPage(1);
          }}
          data-testid="knowledge-search"
        />
      </div>
      <Table<KnowledgeBase>
        rowKey="id"
        size="middle"
        loading={query.isFetching && !query.isPlaceholderData}
        dataSource={list}
        data-testid="knowledge-table"
        onRow={(base) => ({
          onDoubleClick: () => navigate(`/knowledge-list?id=${encodeURIComponent(base.id)}`),
          style: { cursor: "pointer" },
        })}
        columns={[
          { title: t("knowledge.list.index"), key: "index", width: 80, render: (_, __, i) => (page - 1) * limit + i + 1 },
          {
            title: t("knowledge.list.name"),
            dataIndex: "name",
            // Double-click opens a row (the spec); the name is a link too, for those who do not know that.
            render: (v: string, b) => (
              <Link to={`/knowledge-list?id=${encodeURIComponent(b.id)}`} data-testid="knowledge-open">
                <Typography.Text strong>{v}</Typography.Text>
              </Link>
            ),
          },
          { title: t("knowledge.list.source"), key: "source", width: 140, render: () => t("knowledge.list.fileUpload") },
          {
            title: t("knowledge.list.editTime"),
            key: "editTime",
            width: 200,
            render: (_, b) => formatTime(b.updatedTime ?? b.createdTime),
          },
          {
            title: t("knowledge.list.actions"),
            key: "actions",
            width: 160,
            render: (_, b) => (
              // Double-clicks on the buttons must not open the base.
              <Space onDoubleClick={(e) => e.stopPropagation()}>
                <Button type="link" size="small" onClick={() => setModal({ base: b })}>
                  {t("knowledge.list.edit")}
                </Button>
                <Popconfirm
                  title={t("knowledge.list.confirmDelete")}
                  okText={t("common.confirm")}
                  cancelText={t("common.cancel")}
                  onConfirm={() => remove(b)}
                >
                  <Button type="link" size="small" danger data-testid="delete-knowledge">
                    {t("knowledge.list.delete")}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
        pagination={{
          current: page,
          pageSize: limit,
          total,
          showSizeChanger: true,
          pageSizeOptions: KNOWLEDGE_PAGE_SIZES.map(String),
          showTotal: (n) => t("knowledge.list.total", { total: n }),
          onChange: (p, size) => {
            setPage(size !== limit ? 1 : p);
            setLimit(size);
          },
        }}
      />
      <Typography.Text type="secondary">{t("knowledge.list.openHint")}</Typography.Text>
      <KnowledgeModal
        open={modal !== null}
        base={modal?.base ?? null}
        onClose={() => setModal(null)}
        onSaved={() => {
          setModal(null);
          refresh();
        }}
      />
    </div>
  );
}
