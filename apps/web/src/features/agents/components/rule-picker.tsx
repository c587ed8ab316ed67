import { Empty, TreeSelect } from "antd";
import { useTranslation } from "react-i18next";
import { useMyRules } from "../api/my-rules";

/**
 * Binds rules, rule directories or whole projects (the agent's `rules`; the server resolves a
 * directory or project to its enabled rules when the agent runs).
 */
export function RulePicker({ value, onChange }: { value?: string[]; onChange?: (v: string[]) => void }) {
  const { t } = useTranslation();
  const tree = useMyRules();
  const treeData = (tree.data ?? []).map((p) => ({
    value: p.id,
    title: p.name,
    children: p.ruleDirs.map((d) => ({
      value: d.id.endsWith(":root") ? `${p.id}:root` : d.id,
      title: d.name || t("agents.studio.rulesRoot"),
      disabled: d.id.endsWith(":root"),
      children: d.rules.map((r) => ({ value: r.id, title: `${r.name} (${r.ruleKey})`, disabled: !r.useData })),
    })),
  }));
  return (
    <TreeSelect
      multiple
      allowClear
      treeDefaultExpandAll
      loading={tree.isLoading}
      value={value}
      onChange={(v) => onChange?.(v as string[])}
      treeData={treeData}
      placeholder={t("agents.studio.rulesPlaceholder")}
      notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("agents.studio.noRules")} />}
      style={{ width: "100%" }}
      data-testid="studio-rules"
    />
  );
}
