import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { COLUMN_TYPE, DESIGNER } from "@agentfair/contracts";
import { Button, Checkbox, Divider, Empty, Form, Input, InputNumber, Select, Space, Switch, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { newColumn, type Widget } from "../model/widgets";

type Opt = Record<string, unknown>;

/** Which §2 property panels a widget type shows, after the base panel. */
const PANELS: Record<string, string[]> = {
  button: ["button"],
  chart: ["chart"],
  [COLUMN_TYPE]: ["column"],
  date: ["date"],
  daterange: ["date"],
  time: ["date"],
  timerange: ["date"],
  divider: ["divider"],
  iframe: ["iframe"],
  image: ["image"],
  input: ["input"],
  rate: ["rate"],
  row: ["row"],
  scroll: ["scroll"],
  select: ["select"],
  cascader: ["select"],
  checkbox: ["select"],
  radio: ["select"],
  switch: ["switch"],
  table: ["table"],
  tag: ["tag"],
  text: ["text"],
  map: ["map"],
  imagetext: ["imagetext"],
};

/** The property panels of the selected widget (base, then its own). */
export function PropertyPanel({ widget, design, onChange }: { widget: Widget | null; design: Widget[]; onChange: (w: Widget) => void }) {
  const { t } = useTranslation();
  if (!widget) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("designer.props.none")} />;
  const o = widget.options;
  const set = (patch: Opt) => onChange({ ...widget, options: { ...o, ...patch } });
  const setStyle = (patch: Opt) => set({ style: { ...((o.style as Opt) ?? {}), ...patch } });
  const p = (key: string) => t(`designer.props.${key}`);
  const text = (key: string, label = key) => (
    <Form.Item label={p(label)} key={key}>
      <Input value={String(o[key] ?? "")} onChange={(e) => set({ [key]: e.target.value })} aria-label={p(label)} />
    </Form.Item>
  );
  const number = (key: string, label = key, min?: number, max?: number, fallback = 0) => (
    <Form.Item label={p(label)} key={key}>
      <InputNumber
        value={typeof o[key] === "number" ? (o[key] as number) : fallback}
        min={min}
        max={max}
        style={{ width: "100%" }}
        onChange={(v) => set({ [key]: v ?? fallback })}
        aria-label={p(label)}
      />
    </Form.Item>
  );
  const flag = (key: string, label = key) => (
    <Form.Item label={p(label)} key={key}>
      <Switch checked={!!o[key]} onChange={(v) => set({ [key]: v })} aria-label={p(label)} />
    </Form.Item>
  );
  const choice = (key: string, values: string[], label = key) => (
    <Form.Item label={p(label)} key={key}>
      <Select
        value={String(o[key] ?? values[0])}
        options={values.map((v) => ({ value: v, label: t(`designer.choices.${v}`, { defaultValue: v }) }))}
        onChange={(v) => set({ [key]: v })}
        aria-label={p(label)}
      />
    </Form.Item>
  );
  const media = () => [
    text("value", "src"),
    choice("mode", ["full", "fixed"]),
    number("size", "size", 0, 2000, 200),
    number("height", "height", 0, 2000, 160),
    <Form.Item label={p("aspectRatio")} key="aspectRatio">
      <Input
        value={String((o.style as Opt)?.aspectRatio ?? "")}
        placeholder="16/9"
        onChange={(e) => setStyle({ aspectRatio: e.target.value })}
      />
    </Form.Item>,
  ];

  const sections: Record<string, () => ReactNode[]> = {
    button: () => [
      choice("type", ["primary", "default", "dashed", "text", "link"]),
      text("color"),
      choice("size", ["small", "middle", "large"]),
      flag("fullWidth"),
      text("variable"),
      <Form.Item label={p("buttonValue")} key="value" extra={t("designer.props.buttonValueHelp", { text: DESIGNER.lastButtonValue })}>
        <Input.TextArea
          value={String(o.value ?? "")}
          autoSize={{ minRows: 2 }}
          onChange={(e) => set({ value: e.target.value })}
          aria-label={p("buttonValue")}
        />
      </Form.Item>,
    ],
    chart: () => [number("height", "height", 100, 1000, DESIGNER.chartHeight)],
    column: () => [
      number("span", "span", 1, 24, DESIGNER.columnSpan),
      number("offset", "offset", 0, 24),
      number("push", "push", 0, 24),
      number("pull", "pull", 0, 24),
    ],
    date: () => [
      text("format"),
      text("placeholder"),
      ...(widget.type === "date" ? [choice("type", ["date", "week", "month", "year"])] : []),
    ],
    divider: () => [choice("orientation", ["start", "center", "end"]), flag("dashed")],
    iframe: () => media(),
    image: () => [
      ...media(),
      <Form.Item label={p("objectFit")} key="objectFit">
        <Select
          value={String((o.style as Opt)?.objectFit ?? "cover")}
          options={["cover", "contain", "fill", "none"].map((v) => ({ value: v, label: v }))}
          onChange={(v) => setStyle({ objectFit: v })}
        />
      </Form.Item>,
    ],
    input: () => [text("placeholder"), choice("type", ["text", "number", "password"]), text("value", "defaultValue")],
    rate: () => [number("count", "count", 1, 10, 5), flag("allowHalf")],
    row: () => [
      number("gutter", "gutter", 0, 64, 12),
      choice("justify", ["start", "center", "end", "space-between", "space-around"]),
      <Space key="cols">
        <Button
          size="small"
          icon={<PlusOutlined />}
          onClick={() => onChange({ ...widget, cols: [...(widget.cols ?? []), newColumn(design)] })}
          data-testid="row-add-col"
        >
          {p("addColumn")}
        </Button>
        <Typography.Text type="secondary">{t("designer.props.columns", { count: widget.cols?.length ?? 0 })}</Typography.Text>
      </Space>,
    ],
    scroll: () => [number("gutter", "gutter", 0, 64, 12)],
    select: () => [
      text("placeholder"),
      ...(widget.type === "select" || widget.type === "cascader" ? [flag("multiple")] : []),
      ...(widget.type === "checkbox" || widget.type === "radio" ? [choice("displayStyle", ["inline", "block"]), flag("buttonStyle")] : []),
      ...(widget.type === "cascader"
        ? [text("valueKey"), text("labelKey"), text("childrenKey"), flag("checkStrictly"), flag("showAllLevels")]
        : []),
      <OptionItems
        key="items"
        value={(o.optionItems as { label: string; value: string }[]) ?? []}
        onChange={(optionItems) => set({ optionItems })}
      />,
    ],
    switch: () => [text("activeText"), text("inactiveText"), text("color")],
    table: () => [flag("showHeader"), <TableColumns key="th" value={(o.th as Column[]) ?? []} onChange={(th) => set({ th })} />],
    tag: () => [text("value", "tagText"), text("color")],
    text: () => [
      text("value", "textValue"),
      text("useLabelVar"),
      <Form.Item label={p("fontSize")} key="fontSize">
        <InputNumber value={Number((o.style as Opt)?.fontSize ?? 14)} min={8} max={72} onChange={(v) => setStyle({ fontSize: v ?? 14 })} />
      </Form.Item>,
    ],
    imagetext: () => [text("img", "src"), text("title", "cardTitle"), text("content", "cardContent")],
    map: () => [
      number("height", "height", 100, 2000, DESIGNER.mapHeight),
      number("zoom", "zoom", DESIGNER.mapMinZoom, DESIGNER.mapMaxZoom, DESIGNER.mapZoom),
      <Form.Item label={p("styleUrl")} key="styleUrl" extra={p("styleUrlHelp")}>
        <Input value={String(o.styleUrl ?? "")} placeholder="https://…/style.json" onChange={(e) => set({ styleUrl: e.target.value })} />
      </Form.Item>,
    ],
  };

  const isColumn = widget.type === COLUMN_TYPE;
  return (
    <Form layout="vertical" size="small" data-testid="property-panel">
      <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
        {p("base")}
      </Divider>
      {text("name")}
      {!isColumn && text("key")}
      {!isColumn && widget.type !== "row" && widget.type !== "div" && widget.type !== "scroll" && text("label")}
      {!isColumn && !["row", "div", "scroll", "divider", "button"].includes(widget.type) && (
        <Form.Item label={p("useVar")} extra={p("useVarHelp")}>
          <Input
            value={String(o.useVar ?? "")}
            placeholder="data.list"
            onChange={(e) => set({ useVar: e.target.value })}
            aria-label={p("useVar")}
          />
        </Form.Item>
      )}
      {(PANELS[widget.type] ?? []).map((panel) => (
        <div key={panel}>
          <Divider titlePlacement="start" plain>
            {t(`designer.panels.${panel}`)}
          </Divider>
          {sections[panel]?.()}
        </div>
      ))}
    </Form>
  );
}

/** A labelled list of rows (options, table columns): each row's inputs and a delete button, then the add button. */
function RowList<T>({
  label,
  value,
  onChange,
  row,
  newRow,
  addLabel,
}: {
  label: string;
  value: T[];
  onChange: (v: T[]) => void;
  /** The inputs of one row, given how to change it. */
  row: (item: T, update: (change: Partial<T>) => void) => ReactNode;
  /** The row added as number n. */
  newRow: (n: number) => T;
  addLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label}>
      <Space direction="vertical" style={{ width: "100%" }}>
        {value.map((item, i) => (
          <Space.Compact key={i} style={{ width: "100%" }}>
            {row(item, (change) => onChange(value.map((v, k) => (k === i ? { ...v, ...change } : v))))}
            <Button
              icon={<DeleteOutlined />}
              onClick={() => onChange(value.filter((_, k) => k !== i))}
              aria-label={t("designer.actions.delete")}
            />
          </Space.Compact>
        ))}
        <Button size="small" icon={<PlusOutlined />} onClick={() => onChange([...value, newRow(value.length + 1)])}>
          {addLabel}
        </Button>
      </Space>
    </Form.Item>
  );
}

function OptionItems({
  value,
  onChange,
}: {
  value: { label: string; value: string }[];
  onChange: (v: { label: string; value: string }[]) => void;
}) {
  const { t } = useTranslation();
  return (
    <RowList
      label={t("designer.props.optionItems")}
      value={value}
      onChange={onChange}
      row={(item, update) => (
        <>
          <Input value={item.label} placeholder={t("designer.props.optionLabel")} onChange={(e) => update({ label: e.target.value })} />
          <Input
            value={String(item.value)}
            placeholder={t("designer.props.optionValue")}
            onChange={(e) => update({ value: e.target.value })}
          />
        </>
      )}
      newRow={(n) => ({ label: `选项${n}`, value: String(n) })}
      addLabel={t("designer.props.addOption")}
    />
  );
}

interface Column {
  label: string;
  prop: string;
  checked?: boolean;
}

function TableColumns({ value, onChange }: { value: Column[]; onChange: (v: Column[]) => void }) {
  const { t } = useTranslation();
  return (
    <RowList
      label={t("designer.props.th")}
      value={value}
      onChange={onChange}
      row={(c, update) => (
        <>
          <Checkbox
            checked={c.checked !== false}
            onChange={(e) => update({ checked: e.target.checked })}
            style={{ padding: "0 6px", alignSelf: "center" }}
          />
          <Input value={c.label} onChange={(e) => update({ label: e.target.value })} />
          <Input value={c.prop} onChange={(e) => update({ prop: e.target.value })} />
        </>
      )}
      newRow={(n) => ({ label: `列${n}`, prop: `col${n}`, checked: true })}
      addLabel={t("designer.props.addColumn")}
    />
  );
}
