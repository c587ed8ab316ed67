import { Spin } from "antd";
import { lazy, Suspense } from "react";
import type { RouteObject } from "react-router";
import { useSearchParams } from "react-router";

const KnowledgePage = lazy(() => import("../features/knowledge/pages/knowledge-list-page").then((m) => ({ default: m.KnowledgeListPage })));
const CardBindingSelect = lazy(() =>
  import("../features/cards/components/card-binding-select").then((m) => ({ default: m.CardBindingSelect })),
);
const PluginEditorPage = lazy(() => import("../features/tools/pages/plugin-editor-page").then((m) => ({ default: m.PluginEditorPage })));
const WorkflowEditorPage = lazy(() =>
  import("../features/workflows/pages/workflow-editor-page").then((m) => ({ default: m.WorkflowEditorPage })),
);

/**
 * /knowledge-list is one route of two features (doc 2 §2): with a `pluginType` in the query it is
 * a tool's editor (a workflow's canvas for WORKFLOW), otherwise a knowledge base. The shell picks, so
 * no feature knows another.
 */
function KnowledgeListRoute() {
  const [params] = useSearchParams();
  const pluginType = params.get("pluginType");
  return (
    <Suspense fallback={<Spin style={{ display: "block", margin: 48 }} />}>
      {pluginType === "WORKFLOW" ? (
        <WorkflowEditorPage />
      ) : pluginType ? (
        // The tool's result card comes from the cards feature: the shell hands it to the editor.
        <PluginEditorPage cardSlot={(pluginId, readOnly) => <CardBindingSelect pluginId={pluginId} disabled={readOnly} />} />
      ) : (
        <KnowledgePage />
      )}
    </Suspense>
  );
}

export const knowledgeListRoute: RouteObject = { path: "knowledge-list", element: <KnowledgeListRoute /> };
