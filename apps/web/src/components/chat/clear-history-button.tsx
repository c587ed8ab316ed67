import { ClearOutlined } from "@ant-design/icons";
import { Button, Popconfirm, Tooltip } from "antd";
import { useTranslation } from "react-i18next";

/** Clears the session's history after a confirm. */
export function ClearHistoryButton({ onClear, disabled }: { onClear: () => void; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Popconfirm title={t("chat.clearConfirm")} onConfirm={onClear} disabled={disabled}>
      <Tooltip title={t("chat.clearHistory")}>
        <Button type="text" icon={<ClearOutlined />} aria-label={t("chat.clearHistory")} disabled={disabled} />
      </Tooltip>
    </Popconfirm>
  );
}
