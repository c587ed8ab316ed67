import { createContext, useContext } from "react";
import type { ChatBus } from "../../../components/chat/event-bus";
import type { Widget } from "../model/widgets";

export type DesignMode = "designer" | "render";
export type WidgetAction = "up" | "down" | "copy" | "delete";

/** What every widget of one canvas shares: the mode, the selection, the values and the chat bus. */
export interface DesignContextValue {
  mode: DesignMode;
  design: Widget[];
  result: unknown;
  /** The route's query id (§5 date linking). */
  formId: string | null;
  values: Record<string, unknown>;
  setValues: (changes: Record<string, unknown>) => void;
  /** Render mode: buttons already pressed (each is disabled after its first click). */
  clicked: Set<string>;
  markClicked: (id: string) => void;
  bus?: ChatBus;
  selectedId: string | null;
  select: (id: string | null) => void;
  act: (action: WidgetAction, id: string) => void;
}

export const DesignContext = createContext<DesignContextValue | null>(null);

export function useDesign() {
  const ctx = useContext(DesignContext);
  if (!ctx) throw new Error("useDesign outside a design canvas");
  return ctx;
}
