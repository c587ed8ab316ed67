import { ArrowLeftOutlined, SaveOutlined } from "@ant-design/icons";
import {
  closestCenter,
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  PointerSensor,
  pointerWithin,
  useDraggable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { DESIGNER, type Design } from "@agentfair/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Input, Segmented, Select, Space, Tag, Tooltip, Typography } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useWarnOnLeave } from "../../../lib/unsaved";
import { bindDesign, designKey, designsKey, updateDesign } from "../api/designs";
import { useMyPlugins } from "../api/my-plugins";
import { routeFormId } from "../model/date-linking";
import { copyWidget, deleteWidget, findWidget, insertWidget, moveStep, moveWidget, placeOf, updateWidget } from "../model/tree";
import { createWidget, isCardWidget, PALETTE, type Widget, type WidgetType } from "../model/widgets";
import { DesignContext, type DesignContextValue, type DesignMode, type WidgetAction } from "./design-context";
import "./designer.css";
import { PropertyPanel } from "./property-panel";
import { RenderPreview } from "./render-preview";
import { WidgetList } from "./widget-view";

const PALETTE_PREFIX = "palette:";

/** Among the drop targets under the pointer, the innermost (smallest) one wins: a column before its row. */
const innermost: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  if (!hits.length) return closestCenter(args);
  const area = (id: string | number) => {
    const r = args.droppableRects.get(id);
    return r ? r.width * r.height : Number.POSITIVE_INFINITY;
  };
  return [...hits].sort((a, b) => area(a.id) - area(b.id));
};

function PaletteItem({ type, onAdd }: { type: WidgetType; onAdd: () => void }) {
  const { t } = useTranslation();
  const { setNodeRef, attributes, listeners } = useDraggable({ id: `${PALETTE_PREFIX}${type}` });
  return (
    <Tooltip title={t("designer.palette.addHint")} mouseEnterDelay={0.8}>
      <div
        ref={setNodeRef}
        className="dz-palette-item"
        // The 23 widgets carry data-widget-type; the card components data-card-type.
        {...(isCardWidget(type) ? { "data-card-type": type } : { "data-widget-type": type })}
        {...attributes}
        {...listeners}
        onDoubleClick={onAdd}
      >
        {t(`designer.widgets.${type}`)}
      </div>
    </Tooltip>
  );
}

/** The designer (§2, §4, §6): palette, canvas, layout list and property panels; render mode beside a chat. */
export function DesignEditor({ design }: { design: Design }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(design.name);
  const [widgets, setWidgets] = useState<Widget[]>(design.widgetList);
  const [sample, setSample] = useState(design.sampleResult);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [mode, setMode] = useState<DesignMode>("designer");
  const [dragging, setDragging] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [pluginIds, setPluginIds] = useState<string[]>(design.pluginIds);
  const plugins = useMyPlugins();
  const [savedState, setSavedState] = useState(() => JSON.stringify([design.name, design.widgetList, design.sampleResult]));
  const dirty = JSON.stringify([name, widgets, sample]) !== savedState;
  useWarnOnLeave(dirty);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));

  const act = (action: WidgetAction, id: string) => {
    if (action === "up" || action === "down") {
      const moved = moveStep(widgets, id, action);
      if (moved.edge) message.info(t(moved.edge === "top" ? "designer.movedTop" : "designer.movedBottom"));
      setWidgets(moved.design);
    } else if (action === "copy") {
      const { design: next, copy } = copyWidget(widgets, id);
      setWidgets(next);
      if (copy) setSelectedId(copy.id);
    } else {
      setWidgets(deleteWidget(widgets, id));
      if (selectedId === id || !findWidget(deleteWidget(widgets, id), selectedId)) setSelectedId(null);
    }
  };

  /** A palette click adds into the selected container (or beside the selected widget), else at the end. */
  const add = (type: WidgetType) => {
    const w = createWidget(type, widgets);
    const selected = findWidget(widgets, selectedId);
    let next: Widget[];
    if (selected && ["div", "scroll", "col"].includes(selected.type)) next = insertWidget(widgets, w, selected.id);
    else if (selected) {
      const place = placeOf(widgets, selected.id);
      next = insertWidget(widgets, w, place?.containerId ?? null, (place?.index ?? widgets.length) + 1);
    } else next = insertWidget(widgets, w, null);
    setWidgets(next);
    setSelectedId(w.id);
  };

  const onDragStart = (e: DragStartEvent) => setDragging(String(e.active.id));
  const onDragEnd = (e: DragEndEvent) => {
    setDragging(null);
    const over = e.over ? String(e.over.id) : null;
    if (!over) return;
    const activeId = String(e.active.id);
    let containerId: string | null;
    let index: number | undefined;
    if (over.startsWith("list:")) {
      const c = over.slice(5);
      containerId = c === "root" ? null : c;
    } else {
      const place = placeOf(widgets, over);
      if (!place) return;
      containerId = place.containerId;
      index = place.index;
    }
    if (activeId.startsWith(PALETTE_PREFIX)) {
      const w = createWidget(activeId.slice(PALETTE_PREFIX.length) as WidgetType, widgets);
      setWidgets(insertWidget(widgets, w, containerId, index));
      setSelectedId(w.id);
    } else if (activeId !== over) {
      setWidgets(moveWidget(widgets, activeId, containerId, index));
    }
  };

  const ctx = useMemo<DesignContextValue>(
    () => ({
      mode: "designer",
      design: widgets,
      result: undefined,
      formId: routeFormId(),
      values: {},
      setValues: () => undefined,
      clicked: new Set(),
      markClicked: () => undefined,
      selectedId,
      select: setSelectedId,
      act,
    }),
    [widgets, selectedId],
  );

  const save = async () => {
    if (!name.trim()) return void message.warning(t("designer.nameRequired"));
    setSaving(true);
    try {
      const saved = await updateDesign(design.id, { name: name.trim(), widgetList: widgets, sampleResult: sample });
      queryClient.setQueryData(designKey(design.id), saved);
      setSavedState(JSON.stringify([saved.name, saved.widgetList, saved.sampleResult]));
      void queryClient.invalidateQueries({ queryKey: designsKey });
      message.success(t("designer.saved"));
    } finally {
      setSaving(false);
    }
  };

  const selected = findWidget(widgets, selectedId);
  const dragType = dragging?.startsWith(PALETTE_PREFIX) ? dragging.slice(PALETTE_PREFIX.length) : findWidget(widgets, dragging)?.type;

  return (
    <div data-testid="design-editor">
      <Space style={{ marginBottom: 16, width: "100%", justifyContent: "space-between" }} wrap>
        <Space>
          <Button
            icon={<ArrowLeftOutlined />}
            onClick={() =>
              dirty ? modal.confirm({ title: t("designer.leaveUnsaved"), onOk: () => navigate("/designer") }) : navigate("/designer")
            }
            aria-label={t("designer.back")}
          />
          <Input
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={100}
            style={{ width: 260 }}
            aria-label={t("designer.name")}
            data-testid="design-name"
          />
          {dirty && <Tag color="orange">{t("designer.unsaved")}</Tag>}
        </Space>
        <Space>
          <Select
            mode="multiple"
            style={{ minWidth: 220, maxWidth: 360 }}
            placeholder={t("designer.bindTools")}
            value={pluginIds}
            loading={plugins.isLoading}
            options={(plugins.data?.content ?? []).filter((p) => p.editable).map((p) => ({ value: p.id, label: p.pluginName }))}
            onChange={async (ids: string[]) => {
              const saved = await bindDesign(design.id, ids);
              setPluginIds(saved.pluginIds);
              message.success(t("designer.bound"));
            }}
            maxTagCount="responsive"
            aria-label={t("designer.bindTools")}
            data-testid="design-bind-tools"
          />
          <Segmented<DesignMode>
            value={mode}
            onChange={setMode}
            options={[
              { value: "designer", label: t("designer.modes.designer") },
              { value: "render", label: t("designer.modes.render") },
            ]}
            data-testid="design-mode"
          />
          <Button type="primary" icon={<SaveOutlined />} loading={saving} onClick={save} data-testid="design-save">
            {t("designer.save")}
          </Button>
        </Space>
      </Space>

      {mode === "render" ? (
        <RenderPreview widgets={widgets} sample={sample} onSample={setSample} formId={routeFormId()} />
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={innermost}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => setDragging(null)}
        >
          <div className="dz-editor">
            <div className="dz-side" data-testid="designer-palette">
              {PALETTE.map((g) => (
                <div key={g.group} style={{ marginBottom: 12 }}>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t(`designer.palette.${g.group}`)}
                  </Typography.Text>
                  <div className="dz-palette-grid" style={{ marginTop: 6 }}>
                    {g.types.map((type) => (
                      <PaletteItem key={type} type={type} onAdd={() => add(type)} />
                    ))}
                  </div>
                </div>
              ))}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t("designer.layout")}
              </Typography.Text>
              <div data-testid="designer-layout" style={{ marginTop: 6 }}>
                {widgets.length === 0 && <Typography.Text type="secondary">{t("designer.empty")}</Typography.Text>}
                {widgets.map((w) => (
                  <button
                    type="button"
                    key={w.id}
                    className={`dz-layout-item${w.id === selectedId ? " active" : ""}`}
                    onClick={() => setSelectedId(w.id)}
                  >
                    {String(w.options.name)} · {t(`designer.widgets.${w.type}`)}
                  </button>
                ))}
              </div>
            </div>
            <div className="dz-stage" onClick={() => setSelectedId(null)} onKeyDown={undefined} role="presentation">
              <div className="dz-stage-inner">
                <DesignContext.Provider value={ctx}>
                  <div className="dz-canvas" data-testid="designer-canvas">
                    <WidgetList list={widgets} containerId={null} />
                  </div>
                </DesignContext.Provider>
              </div>
            </div>
            <div className="dz-side">
              <PropertyPanel
                key={selected?.id ?? "none"}
                widget={selected}
                design={widgets}
                onChange={(w) => setWidgets(updateWidget(widgets, w.id, (target) => Object.assign(target, w)))}
              />
            </div>
          </div>
          <DragOverlay dropAnimation={{ duration: DESIGNER.dropAnimationMs, easing: "ease" }}>
            {dragType ? <div className="dz-palette-item">{t(`designer.widgets.${dragType}`)}</div> : null}
          </DragOverlay>
        </DndContext>
      )}
    </div>
  );
}
