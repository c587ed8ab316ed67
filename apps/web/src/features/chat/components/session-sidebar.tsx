import { DeleteOutlined, EditOutlined, ExportOutlined, PlusOutlined } from "@ant-design/icons";
import type { SessionItem } from "@agentfair/contracts";
import { Conversations } from "@ant-design/x";
import { XStyles } from "../../../components/chat/x-styles";
import { App, Button, Input, Spin } from "antd";
import dayjs from "dayjs";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { deleteSession } from "../api/delete-session";
import { exportSession } from "../api/export-session";

type Group = "today" | "yesterday" | "week" | "more";
export function sessionGroup(time: string, now = dayjs()): Group {
  const d = dayjs(time);
  if (d.isSame(now, "day")) return "today";
  if (d.isSame(now.subtract(1, "day"), "day")) return "yesterday";
  if (d.isAfter(now.subtract(7, "day").startOf("day"))) return "week";
  return "more";
}

/** How close to the list's end (px) the next page starts loading. */
const LOAD_AHEAD = 120;

/**
 * Sessions grouped by today, yesterday, 7 days and more; new chat, rename, delete, export; a
 * search by title, and the next page of 100 loads as the list scrolls to its end.
 */
const RenameSessionModal = lazy(() => import("./rename-session-modal").then((m) => ({ default: m.RenameSessionModal })));

export function SessionSidebar(props: {
  sessions: SessionItem[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onSearch: (search: string) => void;
  activeId: string | null;
  onSelect: (id: string) => void;
  onNew: () => void;
  onChanged: (deletedId?: string) => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [renaming, setRenaming] = useState<SessionItem | null>(null);
  const groupLabel: Record<Group, string> = {
    today: t("chat.groups.today"),
    yesterday: t("chat.groups.yesterday"),
    week: t("chat.groups.week"),
    more: t("chat.groups.more"),
  };

  const remove = (s: SessionItem) =>
    modal.confirm({
      title: t("chat.deleteConfirm"),
      okButtonProps: { danger: true },
      onOk: async () => {
        await deleteSession(s.session_id);
        message.success(t("chat.deleted"));
        props.onChanged(s.session_id);
      },
    });

  const onScroll = (e: React.UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (props.hasMore && !props.loadingMore && el.scrollHeight - el.scrollTop - el.clientHeight < LOAD_AHEAD) props.onLoadMore();
  };

  return (
    <div className="exec-sidebar">
      <Button type="primary" ghost block icon={<PlusOutlined />} onClick={props.onNew} style={{ marginBottom: 12 }}>
        {t("chat.newChat")}
      </Button>
      <Input.Search
        allowClear
        maxLength={100}
        placeholder={t("chat.searchSessions")}
        onSearch={(v) => props.onSearch(v.trim())}
        onChange={(e) => !e.target.value && props.onSearch("")}
        style={{ marginBottom: 8 }}
        data-testid="session-search"
      />
      <div className="exec-session-scroll" onScroll={onScroll} data-testid="session-scroll">
        <XStyles>
          <Conversations
            data-testid="session-list"
            items={props.sessions.map((s) => ({
              key: s.session_id,
              label: s.title || t("chat.newChatTitle"),
              group: groupLabel[sessionGroup(s.update_time)],
            }))}
            activeKey={props.activeId ?? undefined}
            onActiveChange={(key) => props.onSelect(String(key))}
            groupable
            menu={(item) => ({
              items: [
                { key: "rename", label: t("chat.rename"), icon: <EditOutlined /> },
                { key: "md", label: t("chat.exportMarkdown"), icon: <ExportOutlined /> },
                { key: "json", label: t("chat.exportJson"), icon: <ExportOutlined /> },
                { key: "delete", label: t("chat.delete"), icon: <DeleteOutlined />, danger: true },
              ],
              onClick: ({ key, domEvent }) => {
                domEvent.stopPropagation();
                const s = props.sessions.find((x) => x.session_id === item.key);
                if (!s) return;
                if (key === "rename") {
                  setRenaming(s);
                } else if (key === "delete") remove(s);
                else void exportSession(s.session_id, key === "json" ? "json" : "markdown");
              },
            })}
          />
        </XStyles>
        {props.loadingMore && <Spin size="small" style={{ display: "block", margin: "8px auto" }} />}
      </div>
      {renaming && (
        <Suspense fallback={null}>
          <RenameSessionModal
            session={renaming}
            onClose={() => setRenaming(null)}
            onSaved={() => {
              setRenaming(null);
              props.onChanged();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
