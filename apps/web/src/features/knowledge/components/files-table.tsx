import type { KnowledgeFile } from "@agentfair/contracts";
import { App, Button, Dropdown, Popconfirm, Progress, Space, Table, Tag, Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import { deleteKnowledgeFile } from "../api/delete-file";
import { moveFile } from "../api/folders";
import { formatSize, formatTime } from "../format";

const STATE_COLORS: Record<string, string> = {
  PENDING: "default",
  QUEUING: "default",
  UPLOADED: "processing",
  VECTORIZING: "processing",
  VECTORIZED: "processing",
  DONE: "success",
  FAILED: "error",
};

/** The move menu's key of the top level (folder ids are UUIDs). */
const TOP_LEVEL = "top-level";

/** The files of a base with size, upload time, state and a live progress bar (doc 2 §3, §4). */
export function FilesTable({
  baseId,
  files,
  folders,
  loading,
  onSegment,
  onBrowse,
  onChanged,
}: {
  baseId: string;
  files: KnowledgeFile[];
  folders: Map<string, string>;
  loading: boolean;
  onSegment: (f: KnowledgeFile) => void;
  onBrowse: (f: KnowledgeFile) => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  // A stored file not committed yet has no processing state of its own: it waits for its options.
  const stateOf = (f: KnowledgeFile) => (f.committed ? f.state : "PENDING");
  const move = async (f: KnowledgeFile, folderId: string | null) => {
    await moveFile(baseId, f.id, folderId);
    message.success(t("knowledge.folders.moved"));
    onChanged();
  };
  const remove = async (f: KnowledgeFile) => {
    await deleteKnowledgeFile(baseId, f.id);
    message.success(t("knowledge.page.deleted"));
    onChanged();
  };
  return (
    <Table<KnowledgeFile>
      rowKey="id"
      size="middle"
      scroll={{ x: 1100 }}
      loading={loading}
      dataSource={files}
      pagination={files.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
      locale={{ emptyText: t("knowledge.page.noFiles") }}
      data-testid="files-table"
      onRow={(f) =>
        ({ "data-testid": "file-row", "data-state": stateOf(f), "data-progress": f.progress }) as React.HTMLAttributes<HTMLElement>
      }
      columns={[
        {
          title: t("knowledge.page.fileName"),
          dataIndex: "name",
          width: 220,
          ellipsis: true,
          render: (name: string, f) => (
            <Space size={4}>
              {f.folderId && folders.get(f.folderId) && <Tag>{folders.get(f.folderId)}</Tag>}
              <span>{name}</span>
            </Space>
          ),
        },
        { title: t("knowledge.page.size"), dataIndex: "size", width: 90, render: formatSize },
        { title: t("knowledge.page.uploadTime"), dataIndex: "uploadTime", width: 170, render: formatTime },
        {
          title: t("knowledge.page.state"),
          key: "state",
          width: 170,
          render: (_, f) => {
            const tag = (
              <Tag color={STATE_COLORS[stateOf(f)]} data-testid="file-state">
                {t(`knowledge.states.${stateOf(f)}`)}
              </Tag>
            );
            return f.state === "FAILED" && f.error ? <Tooltip title={f.error}>{tag}</Tooltip> : tag;
          },
        },
        {
          title: t("knowledge.page.progress"),
          key: "progress",
          width: 140,
          render: (_, f) =>
            f.committed ? (
              <Progress
                percent={f.progress}
                size="small"
                status={f.state === "FAILED" ? "exception" : f.state === "DONE" ? "success" : "active"}
                data-testid="file-progress"
              />
            ) : null,
        },
        { title: t("knowledge.page.segments"), dataIndex: "segmentCount", width: 100 },
        {
          title: t("knowledge.page.actions"),
          key: "actions",
          width: 210,
          // On a narrow screen the table scrolls sideways: the actions stay in view.
          fixed: "right",
          render: (_, f) => (
            <Space size={0}>
              {!f.committed && (
                <Button type="link" size="small" onClick={() => onSegment(f)} data-testid="file-segment">
                  {t("knowledge.page.segment")}
                </Button>
              )}
              {f.committed && (
                <Button type="link" size="small" onClick={() => onBrowse(f)} data-testid="file-browse">
                  {t("knowledge.page.browse")}
                </Button>
              )}
              <Dropdown
                trigger={["click"]}
                menu={{
                  items: [
                    { key: TOP_LEVEL, label: t("knowledge.folders.topLevel"), disabled: !f.folderId },
                    ...[...folders].map(([id, name]) => ({ key: id, label: name, disabled: f.folderId === id })),
                  ],
                  onClick: (e) => move(f, e.key === TOP_LEVEL ? null : e.key),
                }}
              >
                <Button type="link" size="small" data-testid="file-move">
                  {t("knowledge.folders.move")}
                </Button>
              </Dropdown>
              <Popconfirm
                title={t("knowledge.page.confirmDeleteFile")}
                okText={t("common.confirm")}
                cancelText={t("common.cancel")}
                onConfirm={() => remove(f)}
              >
                <Button type="link" size="small" danger>
                  {t("knowledge.page.delete")}
                </Button>
              </Popconfirm>
            </Space>
          ),
        },
      ]}
    />
  );
}
