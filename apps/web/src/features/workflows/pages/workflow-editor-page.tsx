import "@xyflow/react/dist/style.css";
import {
  ArrowLeftOutlined,
  ApartmentOutlined,
  CaretRightOutlined,
  CloudUploadOutlined,
  HistoryOutlined,
  RedoOutlined,
  SaveOutlined,
  UndoOutlined,
} from "@ant-design/icons";
import { NODE_TYPES, type WorkflowRun } from "@agentfair/contracts";
import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  Controls,
  type Edge,
  type EdgeChange,
  MiniMap,
  type Node,
  type NodeChange,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
} from "@xyflow/react";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Popover, Segmented, Space, Spin, Tag, Tooltip, Typography } from "antd";
import { type DragEvent, useCallback, useEffect, useMemo, useReducer, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { AgentIcon } from "../../../components/icon-picker/agent-icon";
import { HttpError } from "../../../lib/http";
import { useWarnOnLeave } from "../../../lib/unsaved";
import { releaseWorkflow } from "../api/release";
import { saveGraph } from "../api/save-graph";
import { useWorkflow, workflowKey } from "../api/workflow";
import { type CanvasMarks, FlowNode, MarksContext } from "../components/flow-node";
import { HistoryPanel } from "../components/history-panel";
import { Palette, DRAG_TYPE } from "../components/palette";
import { PropertyPanel } from "../components/property-panel";
import { RunPanel } from "../components/run-panel";
import {
  absolutePosition,
  emptyGraph,
  freePosition,
  fromWire,
  GROUP_HEADER,
  graphReducer,
  groupSize,
  loopAt,
  sizeOf,
  toWire,
  validateGraph,
  variablesFor,
} from "../model/graph";
import { autoLayout } from "../model/layout";
import { LOOP_TYPES, type NodeType, type StartInput, TOP_ONLY, type WfEdge, type WfNode } from "../model/types";

const nodeTypes = Object.fromEntries(NODE_TYPES.map((type) => [type, FlowNode]));
type Side = "props" | "run" | "history";

/** Server validation messages name the node: the ids found in the message get the mark. */
function nodesNamedIn(message: string, nodes: WfNode[]): string[] {
  return nodes.filter((n) => new RegExp(`(^|[^A-Za-z0-9_])${n.id}([^A-Za-z0-9_]|$)`).test(message)).map((n) => n.id);
}

function Editor({ id }: { id: string }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const flow = useReactFlow();
  const query = useWorkflow(id);
  const wf = query.data;
  const [state, dispatch] = useReducer(graphReducer, undefined, emptyGraph);
  // What the server has (the wire graph as JSON): unsaved means the canvas's graph differs from it,
  // so undoing back to the saved graph is saved again.
  const [savedGraph, setSavedGraph] = useState<string | null>(null);
  const [side, setSide] = useState<Side>("props");
  const [busy, setBusy] = useState<"save" | "release" | null>(null);
  const [serverError, setServerError] = useState<{ message: string; nodeIds: string[] } | null>(null);
  const [run, setRun] = useState<WorkflowRun | null>(null);
  // A run opened in 运行记录 → 详情: the canvas shows its path while it is open.
  const [viewedRun, setViewedRun] = useState<WorkflowRun | null>(null);
  const shownRun = side === "history" && viewedRun ? viewedRun : run;
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    if (wf && !loaded) {
      const g = fromWire(wf.draft);
      dispatch({ type: "load", ...g });
      setSavedGraph(JSON.stringify(toWire(g.nodes, g.edges)));
      setLoaded(true);
    }
  }, [wf, loaded]);

  useEffect(() => {
    if (state.refused) message.warning(t(state.refused));
  }, [state.refused, message, t]);

  const currentGraph = useMemo(() => JSON.stringify(toWire(state.nodes, state.edges)), [state.nodes, state.edges]);
  const dirty = savedGraph !== null && currentGraph !== savedGraph;
  const issues = useMemo(() => validateGraph(state.nodes, state.edges), [state.nodes, state.edges]);
  const marks = useMemo<CanvasMarks>(() => {
    const byNode: Record<string, string[]> = {};
    const mark = (nodeId: string, text: string) => {
      byNode[nodeId] = [...(byNode[nodeId] ?? []), text];
    };
    for (const i of issues) if (i.nodeId) mark(i.nodeId, t(`workflows.validation.${i.key}`, i.values));
    for (const nid of serverError?.nodeIds ?? []) mark(nid, serverError?.message ?? "");
    const status: Record<string, string> = {};
    // A body node shows its latest pass.
    for (const n of shownRun?.nodes ?? []) status[n.id] = n.status;
    const sizes: Record<string, { width: number; height: number }> = {};
    for (const n of state.nodes) if (LOOP_TYPES.has(n.type)) sizes[n.id] = groupSize(n.id, state.nodes);
    return { status, issues: byNode, sizes };
  }, [issues, serverError, shownRun, t, state.nodes]);
  const selected = state.nodes.find((n) => n.selected) ?? null;
  const variables = useMemo(
    () => (selected ? variablesFor(selected.id, state.nodes, state.edges) : []),
    [selected, state.nodes, state.edges],
  );
  const startInputs = (state.nodes.find((n) => n.type === "start")?.data.inputs as StartInput[] | undefined) ?? [];

  const onNodesChange = useCallback(
    (changes: NodeChange[]) => {
      const kept = changes.filter((c) => c.type !== "remove");
      if (kept.length) dispatch({ type: "view", nodes: applyNodeChanges(kept, state.nodes as Node[]) as WfNode[] });
      if (kept.some((c) => c.type === "select" && c.selected)) setSide("props");
    },
    [state.nodes],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      const kept = changes.filter((c) => c.type !== "remove");
      if (kept.length) dispatch({ type: "view", edges: applyEdgeChanges(kept, state.edges as Edge[]) as WfEdge[] });
    },
    [state.edges],
  );
  const addAt = (type: NodeType, position: { x: number; y: number }, parentId?: string) => {
    dispatch({ type: "add", nodeType: type, position, parentId });
    setSide("props");
  };
  const addCentered = (type: NodeType) => {
    // With a loop (or a node of its body) selected, the new node goes into that loop's body.
    const loop = selected && (LOOP_TYPES.has(selected.type) ? selected : state.nodes.find((n) => n.id === selected.parentId));
    // A palette click puts the node right of the selected node (the one just added is selected),
    // else in the middle of the view, and moves it to the nearest spot no node or edge covers.
    const rightOf = (n: WfNode) => ({ x: n.position.x + sizeOf(n, state.nodes).width + 60, y: n.position.y });
    if (loop && !TOP_ONLY.has(type)) {
      const anchor = selected?.parentId === loop.id ? selected : state.nodes.filter((n) => n.parentId === loop.id).at(-1);
      const preferred = anchor ? rightOf(anchor) : { x: 24, y: GROUP_HEADER + 8 };
      addAt(type, freePosition(preferred, state.nodes, state.edges, loop.id), loop.id);
      return;
    }
    let preferred: { x: number; y: number };
    if (selected && !selected.parentId) preferred = rightOf(selected);
    else {
      const box = document.querySelector(".react-flow")?.getBoundingClientRect();
      const p = box ? flow.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 }) : { x: 0, y: 0 };
      preferred = { x: p.x - 100, y: p.y - 40 };
    }
    addAt(type, freePosition(preferred, state.nodes, state.edges));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    const type = e.dataTransfer.getData(DRAG_TYPE) as NodeType;
    if (!type) return;
    const at = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
    const loop = TOP_ONLY.has(type) ? null : loopAt(at, state.nodes);
    if (loop) {
      const origin = absolutePosition(loop, state.nodes);
      addAt(type, { x: Math.max(8, at.x - origin.x - 100), y: Math.max(GROUP_HEADER, at.y - origin.y - 30) }, loop.id);
      return;
    }
    addAt(type, { x: at.x - 100, y: at.y - 30 });
  };

  const layout = () => {
    dispatch({ type: "positions", positions: autoLayout(state.nodes, state.edges) });
    requestAnimationFrame(() => flow.fitView({ padding: 0.2, maxZoom: 1 }));
  };

  const save = async (quiet = false): Promise<boolean> => {
    setBusy("save");
    const sent = toWire(state.nodes, state.edges);
    try {
      await saveGraph(id, sent);
      setSavedGraph(JSON.stringify(sent));
      setServerError(null);
      await queryClient.invalidateQueries({ queryKey: workflowKey(id) });
      if (!quiet) message.success(t("workflows.editor.saved"));
      return true;
    } catch (e) {
      const text = e instanceof HttpError ? e.message : String(e);
      setServerError({ message: text, nodeIds: nodesNamedIn(text, state.nodes) });
      message.error(text);
      return false;
    } finally {
      setBusy(null);
    }
  };
  const release = () =>
    modal.confirm({
      title: t("workflows.editor.release"),
      content: t("workflows.editor.releaseConfirm"),
      okText: t("common.confirm"),
      cancelText: t("common.cancel"),
      onOk: async () => {
        if (dirty && !(await save(true))) return;
        setBusy("release");
        try {
          const { version } = await releaseWorkflow(id);
          message.success(`${t("workflows.editor.released")} v${version}`);
          await queryClient.invalidateQueries({ queryKey: workflowKey(id) });
          await queryClient.invalidateQueries({ queryKey: ["tools"] });
        } catch {
          // shown by the http client
        } finally {
          setBusy(null);
        }
      },
    });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement;
      if (el.closest("input, textarea, [contenteditable=true]")) return;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === "z") {
        e.preventDefault();
        dispatch({ type: e.shiftKey ? "redo" : "undo" });
      } else if (mod && e.key.toLowerCase() === "y") {
        e.preventDefault();
        dispatch({ type: "redo" });
      } else if (mod && e.key.toLowerCase() === "s") {
        e.preventDefault();
        void save();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
  useWarnOnLeave(dirty);

  const onRun = useCallback((r: WorkflowRun | null) => setRun(r), []);

  if (query.isError) return <Alert type="error" message={t("workflows.editor.notFound")} />;
  if (!wf || !loaded) return <Spin style={{ display: "block", margin: 48 }} />;
  const released = wf.pluginStatus === "C90_Released";
  const globalIssues = issues.filter((i) => !i.nodeId);

  return (
    <div data-testid="workflow-editor" style={{ display: "flex", flexDirection: "column", height: "calc(100vh - 112px)", minHeight: 560 }}>
      <div style={{ display: "flex", alignItems: "center", gap: 12, marginBottom: 12, flexWrap: "wrap" }}>
        <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t("workflows.editor.back")} onClick={() => navigate(-1)} />
        <AgentIcon icon={wf.workflowIcon} background={wf.workflowIconBackground} size={36} />
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong style={{ fontSize: 16 }} data-testid="wf-name">
            {wf.workflowName}
          </Typography.Text>
          <div>
            <Tag color={released ? "green" : "default"} data-testid="wf-status">
              {released ? `${t("workflows.editor.statusReleased")} v${wf.releasedVersion}` : t("workflows.editor.statusUnreleased")}
            </Tag>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="wf-dirty">
              {dirty ? t("workflows.editor.unsaved") : t("workflows.editor.allSaved")}
            </Typography.Text>
          </div>
        </div>
        <div style={{ flex: 1 }} />
        <Space wrap>
          <Tooltip title={`${t("workflows.editor.undo")} (Ctrl+Z)`}>
            <Button
              icon={<UndoOutlined />}
              disabled={!state.past.length}
              onClick={() => dispatch({ type: "undo" })}
              data-testid="wf-undo"
              aria-label={t("workflows.editor.undo")}
            />
          </Tooltip>
          <Tooltip title={`${t("workflows.editor.redo")} (Ctrl+Shift+Z)`}>
            <Button
              icon={<RedoOutlined />}
              disabled={!state.future.length}
              onClick={() => dispatch({ type: "redo" })}
              data-testid="wf-redo"
              aria-label={t("workflows.editor.redo")}
            />
          </Tooltip>
          <Button icon={<ApartmentOutlined />} onClick={layout} data-testid="wf-layout">
            {t("workflows.editor.layout")}
          </Button>
          <Popover
            title={t("workflows.editor.issues")}
            content={
              issues.length ? (
                <ul style={{ paddingInlineStart: 18, margin: 0, maxWidth: 360 }}>
                  {issues.map((i) => (
                    <li key={`${i.nodeId}-${i.key}`}>
                      {i.nodeId ? <Typography.Text code>{i.nodeId}</Typography.Text> : null} {t(`workflows.validation.${i.key}`, i.values)}
                    </li>
                  ))}
                </ul>
              ) : (
                t("workflows.editor.noIssues")
              )
            }
          >
            <Tag color={issues.length ? "red" : "green"} data-testid="wf-issues" style={{ cursor: "default" }}>
              {t("workflows.editor.issues")} {issues.length}
            </Tag>
          </Popover>
          <Button icon={<SaveOutlined />} loading={busy === "save"} onClick={() => save()} data-testid="wf-save">
            {t("workflows.editor.save")}
          </Button>
          <Segmented<Side>
            value={side}
            onChange={setSide}
            options={[
              { value: "props", label: t("workflows.editor.properties") },
              { value: "run", label: t("workflows.editor.run"), icon: <CaretRightOutlined /> },
              { value: "history", label: t("workflows.editor.history"), icon: <HistoryOutlined /> },
            ]}
            data-testid="wf-side"
          />
          <Button type="primary" icon={<CloudUploadOutlined />} loading={busy === "release"} onClick={release} data-testid="wf-release">
            {t("workflows.editor.release")}
          </Button>
        </Space>
      </div>
      {(globalIssues.length > 0 || serverError) && (
        <Alert
          type={serverError ? "error" : "warning"}
          showIcon
          style={{ marginBottom: 8 }}
          data-testid="wf-alert"
          message={serverError?.message ?? globalIssues.map((i) => t(`workflows.validation.${i.key}`, i.values)).join("；")}
        />
      )}
      <div style={{ display: "flex", flex: 1, minHeight: 0, gap: 12 }}>
        <div style={{ width: 150, flex: "none", overflowY: "auto" }}>
          <Palette onAdd={addCentered} />
        </div>
        <div
          style={{ flex: 1, minWidth: 0, border: "1px solid #f0f0f0", borderRadius: 8, background: "#fafbfc" }}
          onDragOver={(e) => {
            e.preventDefault();
            e.dataTransfer.dropEffect = "move";
          }}
          onDrop={onDrop}
          data-testid="wf-canvas"
        >
          <MarksContext.Provider value={marks}>
            <ReactFlow
              nodes={state.nodes as Node[]}
              edges={state.edges.map((e) => ({ ...e, animated: shownRun?.nodes.some((n) => n.id === e.target && n.status === "RUNNING") }))}
              nodeTypes={nodeTypes}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={(c) => dispatch({ type: "connect", source: c.source, target: c.target, sourceHandle: c.sourceHandle })}
              onNodeDragStart={() => dispatch({ type: "checkpoint" })}
              onBeforeDelete={async ({ nodes, edges }) => {
                dispatch({ type: "remove", nodeIds: nodes.map((n) => n.id), edgeIds: edges.map((e) => e.id) });
                return false;
              }}
              fitView
              fitViewOptions={{ padding: 0.15, maxZoom: 1 }}
              minZoom={0.2}
              maxZoom={2}
              deleteKeyCode={["Delete", "Backspace"]}
              proOptions={{ hideAttribution: true }}
            >
              <Background gap={16} />
              <Controls />
              <MiniMap pannable zoomable style={{ width: 160, height: 100 }} />
            </ReactFlow>
          </MarksContext.Provider>
        </div>
        <div style={{ width: 380, flex: "none", overflowY: "auto", borderLeft: "1px solid #f0f0f0", paddingInlineStart: 12 }}>
          {side === "props" && (
            <PropertyPanel
              workflowId={id}
              node={selected}
              variables={variables}
              issues={selected ? (marks.issues[selected.id] ?? []) : []}
              onChange={(data) => selected && dispatch({ type: "update", id: selected.id, data })}
              onDelete={() => selected && dispatch({ type: "remove", nodeIds: [selected.id] })}
            />
          )}
          {/* kept mounted so a running test keeps its state while the properties are open */}
          <div style={{ display: side === "run" ? "block" : "none" }}>
            <RunPanel workflowId={id} inputs={startInputs} dirty={dirty} onRun={onRun} />
          </div>
          {side === "history" && <HistoryPanel workflowId={id} onView={setViewedRun} />}
        </div>
      </div>
    </div>
  );
}

/** The workflow editor at /knowledge-list?id=&pluginType=WORKFLOW: canvas, properties, test run, history, release. */
export function WorkflowEditorPage() {
  const [params] = useSearchParams();
  const { t } = useTranslation();
  const id = params.get("id") ?? "";
  if (!id) return <Alert type="warning" message={t("workflows.editor.notFound")} />;
  return (
    <ReactFlowProvider>
      <Editor id={id} />
    </ReactFlowProvider>
  );
}
