import { Result } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { PluginEditorPage } from "./plugin-editor-page";

/**
 * /knowledge-list is shared (doc 2 §2): with a `pluginType` in the query it is a tool's editor,
 * otherwise a knowledge base. The knowledge page is built in its own feature; until it is merged
 * in, that branch says honestly that the page is not here.
 */
export function KnowledgeListPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  if (params.get("pluginType")) return <PluginEditorPage />;
  return <Result status="404" title="404" subTitle={t("tools.editor.notFound")} />;
}
