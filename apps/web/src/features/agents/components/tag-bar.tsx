import { DEFAULT_TAGS } from "@agentfair/contracts";
import { Segmented, Space, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { useLabels } from "../api/labels";

export type TagFilter = { source: "tags" | "labels"; tag?: string; labelId?: string };

/** Category tag bar: All plus categories, with a toggle between the two label sources. */
export function TagBar({ value, onChange }: { value: TagFilter; onChange: (v: TagFilter) => void }) {
  const { t } = useTranslation();
  const labels = useLabels();
  const items =
    value.source === "tags"
      ? DEFAULT_TAGS.map((k) => ({ key: k, label: t(`agents.tags.${k}`) }))
      : (labels.data ?? []).map((l) => ({ key: l.id, label: l.labelName }));
  const selected = value.source === "tags" ? value.tag : value.labelId;
  const select = (key?: string) => onChange(value.source === "tags" ? { source: "tags", tag: key } : { source: "labels", labelId: key });
  return (
    <div style={{ display: "flex", alignItems: "center", gap: 16, flexWrap: "wrap" }} data-testid="tag-bar">
      <Segmented
        value={value.source}
        onChange={(v) => onChange({ source: v as TagFilter["source"] })}
        options={[
          { value: "tags", label: t("agents.market.sourceTags") },
          { value: "labels", label: t("agents.market.sourceLabels") },
        ]}
      />
      <Space size={[4, 8]} wrap>
        <Tag.CheckableTag checked={!selected} onChange={() => select(undefined)}>
          {t("agents.market.all")}
        </Tag.CheckableTag>
        {items.map((i) => (
          <Tag.CheckableTag key={i.key} checked={selected === i.key} onChange={() => select(i.key)}>
            {i.label}
          </Tag.CheckableTag>
        ))}
      </Space>
    </div>
  );
}
