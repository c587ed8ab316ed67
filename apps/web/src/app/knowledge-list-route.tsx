import { Spin } from "antd";
import { lazy, Suspense } from "react";
import type { RouteObject } from "react-router";
import { useSearchParams } from "react-router";

const KnowledgePage = lazy(() => import("../features/knowledge/pages/knowledge-list-page").then((m) => ({ default: m.KnowledgeListPage })));
const PluginEditorPage = lazy(() => import("../features/tools/pages/plugin-editor-page").then((m) => ({ default: m.PluginEditorPage })));

/**
 * /knowledge-list is one route of two features (doc 2 §2): with a `pluginType` in the query it is
 * a tool's editor, otherwise a knowledge base. The shell picks, so neither feature knows the other.
 */
function KnowledgeListRoute() {
  const [params] = useSearchParams();
  return (
    <Suspense fallback={<Spin style={{ display: "block", margin: 48 }} />}>
      {params.get("pluginType") ? <PluginEditorPage /> : <KnowledgePage />}
    </Suspense>
  );
}

export const knowledgeListRoute: RouteObject = { path: "knowledge-list", element: <KnowledgeListRoute /> };
