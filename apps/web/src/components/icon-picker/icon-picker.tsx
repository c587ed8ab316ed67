import { CheckOutlined, UploadOutlined } from "@ant-design/icons";
import { ICON_BACKGROUNDS, ICON_EXTENSIONS, ICON_MAX_BYTES } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Empty, Modal, Pagination, Space, Tabs, Typography, Upload } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AgentIcon, DEFAULT_ICON_NAME } from "./agent-icon";
import { iconsKey, uploadIcon, useIcons } from "./api";
import { BUILTIN_ICONS } from "./builtin-icons";

export type IconValue = { icon: string; background: string };

/** The icon of a value without one: AgentIcon draws "" as this (antd's robot icon), so the picker's preview shows it. */
const DEFAULT_ICON = DEFAULT_ICON_NAME;

/**
 * The icon picker (doc 2 §2): a background from 16 presets, then a built-in icon from the
 * gallery of 55 or a local upload (png, jpeg, jpg, gif) with the list of previous uploads.
 */
export function IconPickerModal({
  open,
  value,
  onCancel,
  onOk,
}: {
  open: boolean;
  value: IconValue;
  onCancel: () => void;
  onOk: (v: IconValue) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<IconValue>(value);
  // The draft starts from the value as the picker opens, not once its opening animation has ended:
  // a choice made during the animation would otherwise be overwritten by the old value.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setDraft(value);
  }
  const [page, setPage] = useState(0);
  const [tab, setTab] = useState(value.icon.startsWith("#") ? "upload" : "gallery");
  const [uploading, setUploading] = useState(false);
  const icons = useIcons(page, open && tab === "upload");

  const beforeUpload = async (file: File) => {
    const ext = file.name.includes(".") ? file.name.split(".").pop()!.toLowerCase() : "";
    if (!(ICON_EXTENSIONS as readonly string[]).includes(ext)) {
      message.error(t("agents.icon.formatNotSupported"));
      return Upload.LIST_IGNORE;
    }
    if (file.size > ICON_MAX_BYTES) {
      message.error(t("agents.icon.tooLarge"));
      return Upload.LIST_IGNORE;
    }
    setUploading(true);
    try {
      const { id } = await uploadIcon(file);
      setDraft((d) => ({ ...d, icon: `#${id}` }));
      setPage(0);
      await queryClient.invalidateQueries({ queryKey: iconsKey });
    } catch {
      // the http client has shown the server's message
    } finally {
      setUploading(false);
    }
    return Upload.LIST_IGNORE;
  };

  // 确定 applies what the preview shows, also when no icon was clicked (a form's icon stays unset otherwise).
  const apply = () => onOk({ ...draft, icon: draft.icon || DEFAULT_ICON });

  return (
    <Modal open={open} title={t("agents.icon.pick")} onCancel={onCancel} onOk={apply} width={620} destroyOnHidden>
      <Space align="start" size="large" style={{ marginBottom: 16 }}>
        <AgentIcon icon={draft.icon} background={draft.background} size={72} />
        <div>
          <Typography.Text type="secondary">{t("agents.icon.background")}</Typography.Text>
          <div style={{ display: "grid", gridTemplateColumns: "repeat(8, 28px)", gap: 8, marginTop: 8 }} data-testid="icon-backgrounds">
            {ICON_BACKGROUNDS.map((bg) => (
              <button
                type="button"
                key={bg}
                aria-label={bg}
                onClick={() => setDraft((d) => ({ ...d, background: bg }))}
                style={{
                  width: 28,
                  height: 28,
                  borderRadius: 6,
                  background: bg,
                  cursor: "pointer",
                  border: draft.background === bg ? "2px solid #1677ff" : "1px solid #d9d9d9",
                  display: "flex",
                  alignItems: "center",
                  justifyContent: "center",
                  color: "#1677ff",
                  padding: 0,
                }}
              >
                {draft.background === bg && (
                  <CheckOutlined style={{ fontSize: 12, color: bg.startsWith("#e") || bg.startsWith("#f") ? "#1677ff" : "#fff" }} />
                )}
              </button>
            ))}
          </div>
        </div>
      </Space>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: "gallery",
            label: t("agents.icon.gallery"),
            children: (
              <div style={{ display: "grid", gridTemplateColumns: "repeat(11, 1fr)", gap: 8 }} data-testid="icon-gallery">
                {BUILTIN_ICONS.map((Icon, i) => {
                  const key = String(i + 1);
                  const selected = draft.icon === key;
                  return (
                    <button
                      type="button"
                      key={key}
                      aria-label={`icon ${key}`}
                      onClick={() => setDraft((d) => ({ ...d, icon: key }))}
                      style={{
                        height: 40,
                        borderRadius: 8,
                        cursor: "pointer",
                        background: selected ? "#e6f4ff" : "#fafafa",
                        border: selected ? "2px solid #1677ff" : "1px solid #f0f0f0",
                        display: "flex",
                        alignItems: "center",
                        justifyContent: "center",
                        padding: 0,
                      }}
                    >
                      <Icon style={{ fontSize: 18, color: "#4e5969" }} />
                    </button>
                  );
                })}
              </div>
            ),
          },
          {
            key: "upload",
            label: t("agents.icon.upload"),
            children: (
              <div>
                <Space style={{ marginBottom: 12 }}>
                  <Upload accept=".png,.jpeg,.jpg,.gif" showUploadList={false} beforeUpload={beforeUpload}>
                    <Button icon={<UploadOutlined />} loading={uploading}>
                      {t("agents.icon.uploadButton")}
                    </Button>
                  </Upload>
                  <Typography.Text type="secondary">{t("agents.icon.uploadHint")}</Typography.Text>
                </Space>
                <Typography.Title level={5} style={{ marginTop: 0 }}>
                  {t("agents.icon.previous")}
                </Typography.Title>
                {icons.data && icons.data.content.length === 0 ? (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("agents.icon.noUploads")} />
                ) : (
                  <div style={{ display: "grid", gridTemplateColumns: "repeat(10, 1fr)", gap: 8 }} data-testid="icon-uploads">
                    {icons.data?.content.map((f) => {
                      const selected = draft.icon === `#${f.id}`;
                      return (
                        <button
                          type="button"
                          key={f.id}
                          title={f.name}
                          onClick={() => setDraft((d) => ({ ...d, icon: `#${f.id}` }))}
                          style={{
                            height: 44,
                            padding: 2,
                            borderRadius: 8,
                            cursor: "pointer",
                            background: "#fff",
                            border: selected ? "2px solid #1677ff" : "1px solid #f0f0f0",
                          }}
                        >
                          <img src={f.url} alt={f.name} style={{ width: "100%", height: "100%", objectFit: "cover", borderRadius: 6 }} />
                        </button>
                      );
                    })}
                  </div>
                )}
                {(icons.data?.totalPages ?? 0) > 1 && (
                  <Pagination
                    size="small"
                    style={{ marginTop: 12 }}
                    current={page + 1}
                    pageSize={20}
                    total={icons.data?.totalElements}
                    onChange={(p) => setPage(p - 1)}
                  />
                )}
              </div>
            ),
          },
        ]}
      />
    </Modal>
  );
}

/** A clickable icon that opens the picker. */
export function IconPickerButton({ value, onChange, size = 64 }: { value: IconValue; onChange: (v: IconValue) => void; size?: number }) {
  const [open, setOpen] = useState(false);
  const { t } = useTranslation();
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        title={t("agents.icon.pick")}
        style={{ border: "none", padding: 0, background: "none", cursor: "pointer" }}
        data-testid="icon-picker-button"
      >
        <AgentIcon icon={value.icon} background={value.background} size={size} />
      </button>
      <IconPickerModal
        open={open}
        value={value}
        onCancel={() => setOpen(false)}
        onOk={(v) => {
          onChange(v);
          setOpen(false);
        }}
      />
    </>
  );
}
