import { ArrowDownOutlined, ArrowUpOutlined, CopyOutlined, DeleteOutlined, DragOutlined } from "@ant-design/icons";
import { useDroppable } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { COLUMN_TYPE, DESIGNER } from "@agentfair/contracts";
import {
  Button,
  Cascader,
  Checkbox,
  Col,
  DatePicker,
  Divider,
  Empty,
  Input,
  Radio,
  Rate,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  TimePicker,
  Tooltip,
} from "antd";
import dayjs, { type Dayjs } from "dayjs";
import type { CSSProperties, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isReadOnlyBirthDate, linkDate } from "../model/date-linking";
import { readPath, sendText } from "../model/result";
import { safeStyle, webUrl } from "../model/safe";
import type { Widget } from "../model/widgets";
import { ChartWidget } from "./chart-widget";
import { CardComponent } from "./card-component";
import { useDesign } from "./design-context";
import { type MapPosition, MapWidget } from "./map-widget";

type Opt = Record<string, unknown>;
const str = (v: unknown, fallback = "") => (typeof v === "string" ? v : v === undefined || v === null ? fallback : String(v));
const num = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
const items = (o: Opt) => (Array.isArray(o.optionItems) ? (o.optionItems as { label: string; value: string }[]) : []);
const toDay = (v: unknown, format: string) => {
  if (!v || typeof v !== "string") return null;
  const d = dayjs(v, format);
  return d.isValid() ? d : dayjs(v).isValid() ? dayjs(v) : null;
};
const toRange = (v: unknown, format: string): [Dayjs | null, Dayjs | null] | null =>
  Array.isArray(v) && v.length === 2 ? [toDay(v[0], format), toDay(v[1], format)] : null;

/** The list id of a container's drop zone (root: the top level). */
export const listId = (containerId: string | null) => `list:${containerId ?? "root"}`;

/** A list of widgets: in designer mode a sortable drop zone, in render mode plain. */
export function WidgetList({ list, containerId, horizontal }: { list: Widget[]; containerId: string | null; horizontal?: boolean }) {
  const { mode } = useDesign();
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: listId(containerId), disabled: mode !== "designer" });
  const children = list.map((w) => <WidgetView key={w.id} widget={w} />);
  const className = `dz-list${horizontal ? " dz-list-horizontal" : ""}${isOver ? " dz-list-over" : ""}`;
  if (mode !== "designer") return <div className={className}>{children}</div>;
  return (
    <SortableContext items={list.map((w) => w.id)} strategy={verticalListSortingStrategy}>
      <div ref={setNodeRef} className={`${className} dz-list-edit`} data-list={containerId ?? "root"}>
        {children}
        {!list.length && <div className="dz-list-placeholder">{t(containerId ? "designer.dropHere" : "designer.dropFirst")}</div>}
      </div>
    </SortableContext>
  );
}

/** One widget: its control, and in designer mode the selection frame with its editing tools. */
export function WidgetView({ widget }: { widget: Widget }) {
  const ctx = useDesign();
  if (ctx.mode !== "designer") return <div className={`dz-widget dz-${widget.type}`}>{<WidgetBody widget={widget} />}</div>;
  return <EditableWidget widget={widget} />;
}

function EditableWidget({ widget }: { widget: Widget }) {
  const { t } = useTranslation();
  const ctx = useDesign();
  const sortable = useSortable({ id: widget.id, disabled: widget.type === COLUMN_TYPE });
  const selected = ctx.selectedId === widget.id;
  const style: CSSProperties = { transform: CSS.Translate.toString(sortable.transform), transition: sortable.transition };
  if (sortable.isDragging) style.opacity = 0.4;
  const tool = (action: "up" | "down" | "copy" | "delete", icon: ReactNode) => (
    <Tooltip title={t(`designer.actions.${action}`)}>
      <Button
        size="small"
        type="text"
        icon={icon}
        aria-label={t(`designer.actions.${action}`)}
        data-action={action}
        onClick={(e) => {
          e.stopPropagation();
          ctx.act(action, widget.id);
        }}
      />
    </Tooltip>
  );
  return (
    <div
      ref={sortable.setNodeRef}
      style={style}
      className={`dz-widget dz-${widget.type} dz-editable${selected ? " dz-selected" : ""}`}
      data-widget-id={widget.id}
      data-testid={`widget-${widget.type}`}
      onClick={(e) => {
        e.stopPropagation();
        ctx.select(widget.id);
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter" && e.target === e.currentTarget) ctx.select(widget.id);
      }}
    >
      <WidgetBody widget={widget} />
      {selected && (
        <div className="dz-toolbar">
          {widget.type !== COLUMN_TYPE && (
            <span className="dz-drag" {...sortable.attributes} {...sortable.listeners} title={t("designer.actions.drag")}>
              <DragOutlined />
            </span>
          )}
          {widget.type !== COLUMN_TYPE && tool("up", <ArrowUpOutlined />)}
          {widget.type !== COLUMN_TYPE && tool("down", <ArrowDownOutlined />)}
          {widget.type !== COLUMN_TYPE && tool("copy", <CopyOutlined />)}
          {tool("delete", <DeleteOutlined />)}
        </div>
      )}
      {selected && <span className="dz-name">{str(widget.options.name)}</span>}
    </div>
  );
}

function Field({ label, children }: { label: unknown; children: ReactNode }) {
  return (
    <div className="dz-field">
      {str(label) && <div className="dz-label">{str(label)}</div>}
      <div className="dz-control">{children}</div>
    </div>
  );
}

/** What a widget shows, the same in both modes (render mode is fed by the result and takes input). */
export function WidgetBody({ widget }: { widget: Widget }) {
  const { t } = useTranslation();
  const ctx = useDesign();
  const o = widget.options;
  const render = ctx.mode === "render";
  const value = ctx.values[widget.id] ?? o.value;
  const set = (v: unknown) => render && ctx.setValues({ [widget.id]: v });
  const fromResult = (fallback: unknown) => {
    const v = readPath(ctx.result, o.useVar);
    return v === undefined ? fallback : v;
  };
  const format = str(o.format, "YYYY-MM-DD");

  switch (widget.type) {
    case "button": {
      const pressed = render && ctx.clicked.has(widget.id);
      return (
        <Button
          type={o.type === "link" ? "link" : ((str(o.type, "primary") as "primary" | "default" | "dashed" | "text") ?? "primary")}
          size={str(o.size, "middle") as "small" | "middle" | "large"}
          block={!!o.fullWidth}
          style={o.color ? { background: str(o.color), borderColor: str(o.color) } : undefined}
          disabled={pressed}
          data-testid="designer-button"
          onClick={() => {
            if (!render) return;
            ctx.markClicked(widget.id);
            if (o.type === "link") {
              const url = webUrl(str(o.value));
              if (url) window.open(url, "_blank", "noopener,noreferrer");
              return;
            }
            ctx.bus?.emit("send-chat-button", { text: sendText(ctx.design, widget, ctx.values, ctx.result), flag: true });
          }}
        >
          {str(o.label, t("designer.widgets.button"))}
        </Button>
      );
    }
    case "input":
      return (
        <Field label={o.label}>
          <Input
            value={str(value)}
            placeholder={str(o.placeholder)}
            type={o.type === "password" ? "password" : o.type === "number" ? "number" : "text"}
            readOnly={!render}
            onChange={(e) => set(e.target.value)}
          />
        </Field>
      );
    case "select":
      return (
        <Field label={o.label}>
          <Select
            style={{ width: "100%" }}
            value={o.multiple ? (Array.isArray(value) ? value : []) : value === "" ? undefined : value}
            mode={o.multiple ? "multiple" : undefined}
            placeholder={str(o.placeholder)}
            options={items(o)}
            onChange={set}
            open={render ? undefined : false}
          />
        </Field>
      );
    case "cascader": {
      const fieldNames = { label: str(o.labelKey, "label"), value: str(o.valueKey, "value"), children: str(o.childrenKey, "children") };
      return (
        <Field label={o.label}>
          <Cascader
            style={{ width: "100%" }}
            options={items(o) as never}
            fieldNames={fieldNames}
            value={Array.isArray(value) ? (value as never) : undefined}
            multiple={!!o.multiple as false}
            changeOnSelect={!!o.checkStrictly}
            displayRender={o.showAllLevels === false ? (labels) => labels.at(-1) : undefined}
            placeholder={str(o.placeholder)}
            onChange={(v: unknown) => set(v)}
            open={render ? undefined : false}
          />
        </Field>
      );
    }
    case "checkbox":
      return (
        <Field label={o.label}>
          <Checkbox.Group
            className={o.displayStyle === "block" ? "dz-block" : undefined}
            value={Array.isArray(value) ? (value as string[]) : []}
            options={items(o)}
            onChange={set}
          />
        </Field>
      );
    case "radio":
      return (
        <Field label={o.label}>
          <Radio.Group
            className={o.displayStyle === "block" ? "dz-block" : undefined}
            optionType={o.buttonStyle ? "button" : "default"}
            value={value}
            options={items(o)}
            onChange={(e) => set(e.target.value)}
          />
        </Field>
      );
    case "date": {
      const readOnly = isReadOnlyBirthDate(ctx.formId, widget.id);
      return (
        <Field label={o.label}>
          <DatePicker
            style={{ width: "100%" }}
            picker={(["week", "month", "quarter", "year"].includes(str(o.type)) ? o.type : "date") as "date"}
            format={format}
            value={toDay(value, format)}
            placeholder={str(o.placeholder)}
            inputReadOnly={readOnly}
            data-readonly={readOnly ? "true" : undefined}
            open={render ? undefined : false}
            onChange={(d) => render && ctx.setValues(linkDate(ctx.formId, widget.id, d ? d.format(format) : ""))}
          />
        </Field>
      );
    }
    case "daterange":
      return (
        <Field label={o.label}>
          <DatePicker.RangePicker
            style={{ width: "100%" }}
            format={format}
            value={toRange(value, format)}
            open={render ? undefined : false}
            onChange={(r) => set(r ? r.map((d) => d?.format(format) ?? "") : [])}
          />
        </Field>
      );
    case "time": {
      const f = str(o.format, "HH:mm:ss");
      return (
        <Field label={o.label}>
          <TimePicker
            style={{ width: "100%" }}
            format={f}
            value={toDay(value, f)}
            placeholder={str(o.placeholder)}
            open={render ? undefined : false}
            onChange={(d) => set(d ? d.format(f) : "")}
          />
        </Field>
      );
    }
    case "timerange": {
      const f = str(o.format, "HH:mm:ss");
      return (
        <Field label={o.label}>
          <TimePicker.RangePicker
            style={{ width: "100%" }}
            format={f}
            value={toRange(value, f)}
            open={render ? undefined : false}
            onChange={(r) => set(r ? r.map((d) => d?.format(f) ?? "") : [])}
          />
        </Field>
      );
    }
    case "switch":
      return (
        <Field label={o.label}>
          <Switch
            checked={!!value}
            checkedChildren={str(o.activeText) || undefined}
            unCheckedChildren={str(o.inactiveText) || undefined}
            style={o.color && value ? { background: str(o.color) } : undefined}
            onChange={set}
          />
        </Field>
      );
    case "rate":
      return (
        <Field label={o.label}>
          <Rate value={num(value, 0)} count={num(o.count, 5)} allowHalf={!!o.allowHalf} disabled={!render} onChange={set} />
        </Field>
      );
    case "text": {
      const label = readPath(ctx.result, o.useLabelVar);
      return (
        <div className="dz-text" style={safeStyle(o.style)}>
          {label !== undefined && <span className="dz-text-label">{str(label)}</span>}
          {str(value)}
        </div>
      );
    }
    case "tag":
      return <Tag color={str(o.color) || undefined}>{str(value)}</Tag>;
    case "divider":
      return (
        <Divider titlePlacement={(str(o.orientation, "center") as "start" | "center" | "end") || "center"} dashed={!!o.dashed}>
          {str(o.label) || undefined}
        </Divider>
      );
    case "image":
    case "iframe": {
      const src = str(fromResult(o.value));
      const style = (o.style ?? {}) as { aspectRatio?: string; objectFit?: CSSProperties["objectFit"] };
      const size: CSSProperties =
        o.mode === "fixed"
          ? { width: num(o.size, 200), height: num(o.height, 160) }
          : { width: "100%", height: style.aspectRatio ? undefined : num(o.height, 160) };
      if (!src)
        return (
          <div className="dz-placeholder" style={size}>
            {t(`designer.widgets.${widget.type}`)}
          </div>
        );
      if (widget.type === "image")
        return (
          <img src={src} alt={str(o.label)} style={{ ...size, aspectRatio: style.aspectRatio || undefined, objectFit: style.objectFit }} />
        );
      return (
        <iframe
          src={/^https?:\/\//.test(src) ? src : undefined}
          title={str(o.label, "iframe")}
          // No allow-same-origin: with scripts, a page of this site could lift its own sandbox.
          sandbox="allow-scripts allow-forms allow-popups"
          style={{ ...size, aspectRatio: style.aspectRatio || undefined, border: 0 }}
        />
      );
    }
    case "table": {
      const columns = (Array.isArray(o.th) ? (o.th as { label: string; prop: string; checked?: boolean }[]) : [])
        .filter((c) => c.checked !== false)
        .map((c) => ({ title: c.label, dataIndex: c.prop, key: c.prop }));
      const rows = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
      return (
        <Field label={o.label}>
          <Table
            size="small"
            columns={columns}
            dataSource={rows.map((r, i) => ({ key: i, ...r }))}
            showHeader={o.showHeader !== false}
            pagination={false}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("designer.noData")} /> }}
          />
        </Field>
      );
    }
    case "chart":
      return (
        <Field label={o.label}>
          <ChartWidget option={fromResult(undefined)} height={num(o.height, DESIGNER.chartHeight)} />
        </Field>
      );
    case "map": {
      const list = fromResult(o.list);
      const positions = (Array.isArray(list) ? list : []).filter(
        (p): p is MapPosition => !!p && typeof p.lng === "number" && typeof p.lat === "number",
      );
      const center = Array.isArray(o.center) && o.center.length === 2 ? (o.center as [number, number]) : undefined;
      return (
        <Field label={o.label}>
          <MapWidget
            positions={positions}
            height={num(o.height, DESIGNER.mapHeight)}
            center={center}
            zoom={num(o.zoom, DESIGNER.mapZoom)}
            styleUrl={str(o.styleUrl)}
          />
        </Field>
      );
    }
    case "row":
      return (
        <Row gutter={num(o.gutter, 0)} justify={(str(o.justify, "start") as "start") || "start"} className="dz-row-inner">
          {(widget.cols ?? []).map((c) => (
            <Col
              key={c.id}
              span={num(c.options.span, DESIGNER.columnSpan)}
              offset={num(c.options.offset, 0)}
              push={num(c.options.push, 0)}
              pull={num(c.options.pull, 0)}
            >
              <WidgetView widget={c} />
            </Col>
          ))}
        </Row>
      );
    case COLUMN_TYPE:
      return <WidgetList list={widget.widgetList ?? []} containerId={widget.id} />;
    case "div":
      return (
        <div className="dz-div" style={safeStyle(o.style)}>
          <WidgetList list={widget.widgetList ?? []} containerId={widget.id} />
        </div>
      );
    case "scroll":
      return (
        <div className="dz-scroll" style={{ ["--dz-gutter" as string]: `${num(o.gutter, 12)}px` }}>
          <WidgetList list={widget.widgetList ?? []} containerId={widget.id} horizontal />
        </div>
      );
    case "imagetext":
    case "weather":
      return <CardComponent widget={widget} />;
    default:
      return <Space>{widget.type}</Space>;
  }
}
