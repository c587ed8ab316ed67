import { COLUMN_TYPE, type WidgetType } from "@agentfair/contracts";
import { flatten, newId, newKey, uniqueName, type Widget } from "./widgets";

/** Where a widget sits: the list that holds it, its index, and the widget owning that list (null at top level). */
interface Place {
  list: Widget[];
  index: number;
  owner: Widget | null;
}

function locate(list: Widget[], id: string, owner: Widget | null = null): Place | null {
  for (let i = 0; i < list.length; i++) {
    const w = list[i];
    if (w.id === id) return { list, index: i, owner };
    for (const children of [w.cols, w.widgetList]) {
      if (!children) continue;
      const found = locate(children, id, w);
      if (found) return found;
    }
  }
  return null;
}

export const findWidget = (design: Widget[], id: string | null) => (id ? (flatten(design).find((w) => w.id === id) ?? null) : null);

/** The list a new widget dropped on a container lands in (a row takes it in its first column). */
function childrenOf(w: Widget) {
  if (w.type === "row") return w.cols?.[0]?.widgetList;
  return w.widgetList;
}

/** The list a container holds (null: the top level); undefined when the container is gone or holds none. */
function listIn(tree: Widget[], containerId: string | null): Widget[] | undefined {
  if (!containerId) return tree;
  const container = findWidget(tree, containerId);
  return container ? childrenOf(container) : undefined;
}

/** Inserts a widget at index of a container (null: top level). Returns a new tree. */
export function insertWidget(design: Widget[], w: Widget, containerId: string | null, index?: number): Widget[] {
  const next = structuredClone(design);
  const list = listIn(next, containerId);
  if (!list) return design;
  list.splice(index ?? list.length, 0, w);
  return next;
}

/** Moves a widget to another container or place (drag and drop). A container never goes into itself. */
export function moveWidget(design: Widget[], id: string, containerId: string | null, index?: number): Widget[] {
  if (containerId) {
    const moving = findWidget(design, id);
    if (!moving || flatten([moving]).some((w) => w.id === containerId)) return design;
  }
  const next = structuredClone(design);
  const from = locate(next, id);
  if (!from) return design;
  const [w] = from.list.splice(from.index, 1);
  const list = listIn(next, containerId);
  if (!list) return design;
  const at = index === undefined ? list.length : Math.min(index, list.length);
  list.splice(at, 0, w);
  return next;
}

export type MoveResult = { design: Widget[]; edge?: "top" | "bottom" };

/**
 * §4 move up or down. Inside a container, past its first or last place a widget goes into the
 * neighbouring column of the row, else out of the container (just before or after it). At top
 * level, past the ends nothing moves and the edge is reported (已经移动到最上面 / 已经移动到最下面).
 */
export function moveStep(design: Widget[], id: string, dir: "up" | "down"): MoveResult {
  const next = structuredClone(design);
  const place = locate(next, id);
  if (!place) return { design };
  const { list, index, owner } = place;
  const target = dir === "up" ? index - 1 : index + 1;
  if (target >= 0 && target < list.length) {
    [list[index], list[target]] = [list[target], list[index]];
    return { design: next };
  }
  if (!owner) return { design, edge: dir === "up" ? "top" : "bottom" };
  const [w] = list.splice(index, 1);
  if (owner.type === COLUMN_TYPE) {
    const row = locate(next, owner.id);
    const cols = row?.list ?? [];
    const neighbour = cols[(row?.index ?? 0) + (dir === "up" ? -1 : 1)];
    if (neighbour) {
      neighbour.widgetList ??= [];
      if (dir === "up") neighbour.widgetList.push(w);
      else neighbour.widgetList.unshift(w);
      return { design: next };
    }
    // The first or last column: out of the row, beside it.
    const rowPlace = row?.owner ? locate(next, row.owner.id) : null;
    if (!rowPlace) return { design };
    rowPlace.list.splice(rowPlace.index + (dir === "up" ? 0 : 1), 0, w);
    return { design: next };
  }
  const outer = locate(next, owner.id);
  if (!outer) return { design };
  outer.list.splice(outer.index + (dir === "up" ? 0 : 1), 0, w);
  return { design: next };
}

/** A clone with new ids, names and keys for it and everything inside it. */
function cloneFresh(w: Widget, design: Widget[]): Widget {
  const copy = structuredClone(w);
  const names = [...design];
  for (const node of flatten([copy])) {
    node.id = newId();
    node.options = { ...node.options, name: uniqueName(node.type, names) };
    if (node.type !== COLUMN_TYPE) node.options.key = newKey(node.type as WidgetType);
    // Later names in the same clone must see this one as taken.
    names.push({ ...node, cols: undefined, widgetList: undefined });
  }
  return copy;
}

/** §4 copy: a clone right after the original (new id, unique type-number name, type + 5 random characters key). */
export function copyWidget(design: Widget[], id: string): { design: Widget[]; copy: Widget | null } {
  const next = structuredClone(design);
  const place = locate(next, id);
  if (!place) return { design, copy: null };
  const copy = cloneFresh(place.list[place.index], next);
  place.list.splice(place.index + 1, 0, copy);
  return { design: next, copy };
}

export function deleteWidget(design: Widget[], id: string): Widget[] {
  const next = structuredClone(design);
  const place = locate(next, id);
  if (!place) return design;
  place.list.splice(place.index, 1);
  return next;
}

export function updateWidget(design: Widget[], id: string, change: (w: Widget) => void): Widget[] {
  const next = structuredClone(design);
  const w = findWidget(next, id);
  if (!w) return design;
  change(w);
  return next;
}

/** The container a widget sits in (null: top level) and its index there. */
export function placeOf(design: Widget[], id: string): { containerId: string | null; index: number } | null {
  const place = locate(design, id);
  if (!place) return null;
  return { containerId: place.owner?.id ?? null, index: place.index };
}
