import { DeleteOutlined, EditOutlined } from "@ant-design/icons";
import { Button, Card, Empty, type FormInstance, Modal, Popconfirm, Space, Table, type TableColumnsType, Tooltip } from "antd";
import { type ReactNode, useState } from "react";
import { validated } from "../lib/form";
import { PageTitle } from "./page-title";

/**
 * An administration list page (models, robots, chat robots): a titled card with its buttons, a
 * table of rows that scrolls sideways rather than wrapping, and the row actions in a column
 * fixed on the right. Dialogs and other parts of the page come as children.
 */
export function AdminTable<T extends { id: string }>({
  title,
  subtitle,
  extra,
  loading,
  rows,
  empty,
  columns,
  actionsTitle,
  actions,
  nowrap = false,
  children,
}: {
  title: ReactNode;
  subtitle: ReactNode;
  extra: ReactNode;
  loading: boolean;
  rows: T[] | undefined;
  empty: ReactNode;
  columns: TableColumnsType<T>;
  actionsTitle: ReactNode;
  actions: (row: T) => ReactNode;
  /** Header cells (true) or rows too ("rows") kept on one line. */
  nowrap?: boolean | "rows";
  children?: ReactNode;
}) {
  const oneLine = { style: { whiteSpace: "nowrap" as const } };
  return (
    <div style={{ maxWidth: 1400, margin: "0 auto" }}>
      <Card title={<PageTitle title={title} subtitle={subtitle} />} extra={extra}>
        <Table<T>
          rowKey="id"
          size="middle"
          loading={loading}
          dataSource={rows ?? []}
          pagination={false}
          // As wide as its content: the table scrolls when the window is not.
          scroll={{ x: "max-content" }}
          onHeaderRow={nowrap === true ? () => oneLine : undefined}
          onRow={nowrap ? () => oneLine : undefined}
          locale={{ emptyText: <Empty description={empty} /> }}
          columns={[
            ...columns,
            {
              title: actionsTitle,
              fixed: "right",
              render: (_, row) => <Space size={0}>{actions(row)}</Space>,
            },
          ]}
        />
      </Card>
      {children}
    </div>
  );
}

/** A row action: an icon button named by its tooltip. */
export function RowAction({
  label,
  icon = <EditOutlined />,
  onClick,
  disabled,
  loading,
}: {
  label: string;
  icon?: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  loading?: boolean;
}) {
  return (
    <Tooltip title={label}>
      <Button type="text" icon={icon} disabled={disabled} loading={loading} onClick={onClick} aria-label={label} />
    </Tooltip>
  );
}

/** The delete row action, asked to confirm first. */
export function RowDelete({ label, confirm, onConfirm }: { label: string; confirm: string; onConfirm: () => Promise<void> }) {
  return (
    <Popconfirm title={confirm} onConfirm={onConfirm}>
      <Button type="text" danger icon={<DeleteOutlined />} aria-label={label} />
    </Popconfirm>
  );
}

/**
 * The add / edit dialog of an administration list: `open("new")` or `open(row)` fills the form
 * (a new row from the form's initial values, a stored one through `fields`), and OK saves the
 * validated values, then closes.
 */
export function useEditDialog<T, V>(form: FormInstance<V>, fields: (row: T) => Partial<V>) {
  const [editing, setEditing] = useState<T | "new" | null>(null);
  return {
    editing,
    /** The stored row being edited; null for a new one. */
    row: editing === "new" ? null : editing,
    open: (r: T | "new") => {
      setEditing(r);
      form.resetFields();
      if (r !== "new") form.setFieldsValue(fields(r) as Parameters<FormInstance<V>["setFieldsValue"]>[0]);
    },
    close: () => setEditing(null),
  };
}

/** The dialog of `useEditDialog`: its title says add or edit; `onSave` gets the stored row (null for a new one) and the values. */
export function EditDialog<T, V>({
  dialog,
  form,
  addTitle,
  editTitle,
  onSave,
  width,
  children,
}: {
  dialog: ReturnType<typeof useEditDialog<T, V>>;
  form: FormInstance<V>;
  addTitle: string;
  editTitle: string;
  onSave: (row: T | null, values: V) => Promise<void>;
  width?: number;
  children: ReactNode;
}) {
  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    await onSave(dialog.row, values);
    dialog.close();
  };
  return (
    <Modal
      open={!!dialog.editing}
      title={dialog.editing === "new" ? addTitle : editTitle}
      onOk={save}
      onCancel={dialog.close}
      width={width}
      destroyOnHidden
    >
      {children}
    </Modal>
  );
}
