import { useMemo, useState } from "react";
import type { ChatBus } from "../../../components/chat/event-bus";
import { routeFormId } from "../model/date-linking";
import { initialValues } from "../model/result";
import type { Widget } from "../model/widgets";
import { DesignContext, type DesignContextValue } from "./design-context";
import "./designer.css";
import { WidgetList } from "./widget-view";

export interface DesignRendererProps {
  /** A saved design or its widgets. */
  design: { widgetList: Widget[] } | Widget[];
  /** The result object the widgets read through their useVar paths. */
  result?: unknown;
  mode?: "render";
  /** Where buttons send (send-chat-button); without one they only disable. */
  bus?: ChatBus;
  /** §5: the form id the date linking compares with; the route's query id by default. */
  formId?: string | null;
  /** A dry run (the designer's preview with no agent chosen): buttons say what they would send and stay enabled. */
  dryRun?: boolean;
}

function RenderedDesign({
  widgets,
  result,
  bus,
  formId,
  dryRun,
}: {
  widgets: Widget[];
  result: unknown;
  bus?: ChatBus;
  formId: string | null;
  dryRun?: boolean;
}) {
  const [values, setValuesState] = useState(() => initialValues(widgets, result));
  const [clicked, setClicked] = useState<Set<string>>(() => new Set());
  const ctx = useMemo<DesignContextValue>(
    () => ({
      mode: "render",
      design: widgets,
      result,
      formId,
      values,
      setValues: (changes) => setValuesState((v) => ({ ...v, ...changes })),
      clicked,
      markClicked: (id) => {
        if (!dryRun) setClicked((s) => new Set(s).add(id));
      },
      bus,
      selectedId: null,
      select: () => undefined,
      act: () => undefined,
    }),
    [widgets, result, formId, values, clicked, bus, dryRun],
  );
  return (
    <DesignContext.Provider value={ctx}>
      <div className="dz-canvas dz-render" data-testid="design-render">
        <WidgetList list={widgets} containerId={null} />
      </div>
    </DesignContext.Provider>
  );
}

/** Render mode (§6): the design as a live form fed by a result; its last button sends into the chat. */
export function DesignRenderer(props: DesignRendererProps) {
  const widgets = Array.isArray(props.design) ? props.design : props.design.widgetList;
  // A new design or result starts the form afresh (values, pressed buttons).
  const key = useMemo(() => JSON.stringify([widgets, props.result ?? null]), [widgets, props.result]);
  return (
    <RenderedDesign
      key={key}
      widgets={widgets}
      result={props.result}
      bus={props.bus}
      formId={props.formId === undefined ? routeFormId() : props.formId}
      dryRun={props.dryRun}
    />
  );
}
