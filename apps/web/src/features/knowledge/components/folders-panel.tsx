import { DeleteOutlined, EditOutlined, FolderAddOutlined, FolderOutlined, InboxOutlined } from "@ant-design/icons";
import { App, Button, Form, Input, Menu, Modal, Popconfirm, Space, Tooltip } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { createFolder, deleteFolder, renameFolder } from "../api/folders";
import { validated } from "../../../lib/form";

/** Which files the table shows: all of them, or one folder's. */
export type FolderFilter = "all" | string;

/** A valid folder name (doc 2 §5): not empty, no slash. */
export const folderNameOk = (name: string) => !!name.trim() && !/[/\\]/.test(name);

/** The folders of a base: pick one to see its files; create, rename and delete (its files move to the top level). */
export function FoldersPanel({
  baseId,
  folders,
  counts,
  selected,
  onSelect,
  onChanged,
}: {
  baseId: string;
  folders: { id: string; name: string }[];
  counts: Map<string, number>;
  selected: FolderFilter;
  onSelect: (f: FolderFilter) => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const [editing, setEditing] = useState<{ id: string | null; name: string } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (editing) form.setFieldsValue({ name: editing.name });
  }, [editing, form]);

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    const { name } = values;
    setSaving(true);
    try {
      if (editing?.id) await renameFolder(baseId, editing.id, name.trim());
      else await createFolder(baseId, name.trim());
      message.success(t(editing?.id ? "knowledge.folders.saved" : "knowledge.folders.created"));
      setEditing(null);
      onChanged();
    } catch {
      // The http client has shown the server's message (a taken name).
    } finally {
      setSaving(false);
    }
  };
  const remove = async (id: string) => {
    await deleteFolder(baseId, id);
    message.success(t("knowledge.page.deleted"));
    if (selected === id) onSelect("all");
    onChanged();
  };

  const label = (name: string, n: number | undefined) => (
    <span>
      {name}
      <span style={{ marginInlineStart: 6, color: "rgba(0,0,0,0.45)" }}>{n ?? 0}</span>
    </span>
  );

  return (
    <div data-testid="folders-panel" style={{ display: "flex", alignItems: "center", gap: 8, marginBottom: 12 }}>
      <Menu
        mode="horizontal"
        selectedKeys={[selected]}
        onClick={(e) => onSelect(e.key)}
        style={{ flex: 1, minWidth: 0, borderBottom: "none", lineHeight: "40px" }}
        items={[
          { key: "all", icon: <InboxOutlined />, label: label(t("knowledge.folders.all"), counts.get("all")) },
          ...folders.map((f) => ({
            key: f.id,
            icon: <FolderOutlined />,
            label: label(f.name, counts.get(f.id)),
          })),
        ]}
      />
      {selected !== "all" && folders.some((f) => f.id === selected) && (
        <Space size={4}>
          <Tooltip title={t("knowledge.folders.rename")}>
            <Button
              size="small"
              icon={<EditOutlined />}
              aria-label={t("knowledge.folders.rename")}
              onClick={() => setEditing({ id: selected, name: folders.find((f) => f.id === selected)?.name ?? "" })}
              data-testid="folder-rename"
            />
          </Tooltip>
          <Popconfirm
            title={t("knowledge.folders.confirmDelete")}
            okText={t("common.confirm")}
            cancelText={t("common.cancel")}
            onConfirm={() => remove(selected)}
          >
            <Tooltip title={t("knowledge.folders.delete")}>
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t("knowledge.folders.delete")}
                data-testid="folder-delete"
              />
            </Tooltip>
          </Popconfirm>
        </Space>
      )}
      <Button icon={<FolderAddOutlined />} onClick={() => setEditing({ id: null, name: "" })} data-testid="folder-create">
        {t("knowledge.folders.create")}
      </Button>
      <Modal
        open={!!editing}
        title={editing?.id ? t("knowledge.folders.rename") : t("knowledge.folders.create")}
        onCancel={() => setEditing(null)}
        onOk={save}
        confirmLoading={saving}
        okText={t("common.confirm")}
        cancelText={t("common.cancel")}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" onFinish={save}>
          <Form.Item
            name="name"
            label={t("knowledge.folders.name")}
            rules={[
              {
                validator: (_, v: string | undefined) =>
                  folderNameOk(v ?? "") ? Promise.resolve() : Promise.reject(new Error(t("knowledge.folders.nameInvalid"))),
              },
            ]}
          >
            <Input maxLength={100} data-testid="folder-name" />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
