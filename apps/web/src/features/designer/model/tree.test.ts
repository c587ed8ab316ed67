import { COLUMN_TYPE, DESIGNER } from "@agentfair/contracts";
import { describe, expect, it } from "vitest";
import { copyWidget, deleteWidget, findWidget, insertWidget, moveStep, moveWidget } from "./tree";
import { createWidget, flatten, type Widget } from "./widgets";

const ids = (list: Widget[] | undefined) => (list ?? []).map((w) => w.options.name);

/** top: input-1, row-1 [col-1: text-1, text-2 | col-2: tag-1], div-1 [switch-1], button-1 */
function sample() {
  let d: Widget[] = [];
  const add = (type: Parameters<typeof createWidget>[0], container: string | null = null) => {
    const w = createWidget(type, d);
    d = insertWidget(d, w, container);
    return w;
  };
  add("input");
  const row = add("row");
  const [c1, c2] = row.cols ?? [];
  add("text", c1.id);
  add("text", c1.id);
  add("tag", c2.id);
  const div = add("div");
  add("switch", div.id);
  add("button");
  const get = (name: string) => flatten(d).find((w) => w.options.name === name) as Widget;
  return { d: () => d, get, row, c1, c2, div };
}

describe("widget defaults (§3, §9)", () => {
  it("gives each type its options: columns span 12 with offset, push and pull 0; map 350 high; ids without dashes", () => {
    const row = createWidget("row", []);
    expect(row.cols).toHaveLength(2);
    for (const c of row.cols ?? []) {
      expect(c.type).toBe(COLUMN_TYPE);
      expect(c.options).toMatchObject({ span: 12, offset: 0, push: 0, pull: 0 });
    }
    expect(new Set(row.cols?.map((c) => c.options.name)).size).toBe(2);
    const map = createWidget("map", []);
    expect(map.options).toMatchObject({ height: DESIGNER.mapHeight, zoom: 13.5 });
    expect(createWidget("chart", []).options.height).toBe(240);
    const input = createWidget("input", []);
    expect(input.id).toMatch(/^[0-9a-f]{32}$/);
    expect(input.options.name).toBe("input-1");
    expect(input.options.key).toMatch(/^input[A-Za-z0-9]{5}$/);
    expect(createWidget("input", [input]).options.name).toBe("input-2");
  });
});

describe("move up and down (§4)", () => {
  it("swaps at top level and reports the ends: 已经移动到最上面 / 已经移动到最下面", () => {
    const s = sample();
    const first = s.get("input-1");
    expect(moveStep(s.d(), first.id, "up")).toEqual({ design: s.d(), edge: "top" });
    expect(moveStep(s.d(), s.get("button-1").id, "down")).toEqual({ design: s.d(), edge: "bottom" });
    const down = moveStep(s.d(), first.id, "down");
    expect(down.edge).toBeUndefined();
    expect(ids(down.design)).toEqual(["row-1", "input-1", "div-1", "button-1"]);
  });

  it("inside a column: swaps, then pushes into the neighbouring column, then out of the row", () => {
    const s = sample();
    const t1 = s.get("text-1");
    let d = moveStep(s.d(), t1.id, "down").design;
    expect(ids(findWidget(d, s.c1.id)?.widgetList)).toEqual(["text-2", "text-1"]);
    d = moveStep(d, t1.id, "down").design;
    expect(ids(findWidget(d, s.c1.id)?.widgetList)).toEqual(["text-2"]);
    expect(ids(findWidget(d, s.c2.id)?.widgetList)).toEqual(["text-1", "tag-1"]);
    // The last column's last widget leaves the row, right after it.
    const tag = s.get("tag-1");
    d = moveStep(d, tag.id, "down").design;
    expect(ids(d)).toEqual(["input-1", "row-1", "tag-1", "div-1", "button-1"]);
    // The first column's first widget leaves the row upwards, right before it.
    d = moveStep(d, s.get("text-2").id, "up").design;
    expect(ids(d)).toEqual(["input-1", "text-2", "row-1", "tag-1", "div-1", "button-1"]);
    // Up from the second column's top goes to the end of the first column.
    d = moveStep(d, t1.id, "up").design;
    expect(ids(findWidget(d, s.c1.id)?.widgetList)).toEqual(["text-1"]);
  });

  it("out of a div container at its ends", () => {
    const s = sample();
    const d = moveStep(s.d(), s.get("switch-1").id, "up").design;
    expect(ids(d)).toEqual(["input-1", "row-1", "switch-1", "div-1", "button-1"]);
    const d2 = moveStep(s.d(), s.get("switch-1").id, "down").design;
    expect(ids(d2)).toEqual(["input-1", "row-1", "div-1", "switch-1", "button-1"]);
  });
});

describe("copy and delete (§4)", () => {
  it("inserts a clone right after the original with a new id, a unique type-number name and a type+5 key", () => {
    const s = sample();
    const input = s.get("input-1");
    const { design, copy } = copyWidget(s.d(), input.id);
    expect(ids(design).slice(0, 2)).toEqual(["input-1", "input-2"]);
    expect(copy?.id).toMatch(/^[0-9a-f]{32}$/);
    expect(copy?.id).not.toBe(input.id);
    expect(copy?.options.key).toMatch(/^input[A-Za-z0-9]{5}$/);
    expect(copy?.options.key).not.toBe(input.options.key);
    expect(copy?.options.label).toBe(input.options.label);
  });

  it("a copied row gets fresh ids and names for its columns and widgets", () => {
    const s = sample();
    const { design, copy } = copyWidget(s.d(), s.row.id);
    const all = flatten(design);
    expect(new Set(all.map((w) => w.id)).size).toBe(all.length);
    expect(new Set(all.map((w) => w.options.name)).size).toBe(all.length);
    expect(copy?.options.name).toBe("row-2");
    expect(ids(copy?.cols?.[0].widgetList)).toEqual(["text-3", "text-4"]);
  });

  it("deletes a widget with what it holds; moving a container into itself is refused", () => {
    const s = sample();
    const d = deleteWidget(s.d(), s.row.id);
    expect(ids(d)).toEqual(["input-1", "div-1", "button-1"]);
    expect(findWidget(d, s.get("text-1").id)).toBeNull();
    expect(moveWidget(s.d(), s.div.id, s.div.id)).toBe(s.d());
    const moved = moveWidget(s.d(), s.get("input-1").id, s.c2.id, 0);
    expect(ids(findWidget(moved, s.c2.id)?.widgetList)).toEqual(["input-1", "tag-1"]);
  });
});
