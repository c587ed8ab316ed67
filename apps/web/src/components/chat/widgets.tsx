import type { ButtonOption, WidgetData, WidgetKind } from "@agentfair/contracts";
import { Button, Space } from "antd";
import { type ComponentType, createContext, type ReactNode, useContext } from "react";
import type { ChatBus } from "./event-bus";

/** What a widget renderer gets: the reply's widgetData and the chat's bus (its buttons send through it). */
export interface WidgetRendererProps {
  widget: WidgetData;
  bus: ChatBus;
}
export type WidgetRenderers = Partial<Record<WidgetKind, ComponentType<WidgetRendererProps>>>;

/**
 * The renderers of `widgetData` kinds other than the button row, given by the app shell: cards
 * (features/cards), designs (features/designer). The chat knows none of those features.
 */
const WidgetRenderersContext = createContext<WidgetRenderers>({});

export function WidgetRenderersProvider({ renderers, children }: { renderers: WidgetRenderers; children: ReactNode }) {
  return <WidgetRenderersContext.Provider value={renderers}>{children}</WidgetRenderersContext.Provider>;
}

export const useWidgetRenderers = () => useContext(WidgetRenderersContext);

/**
 * Landscape button row (doc 2 §2): rounded outline primary buttons, one per option label; a click
 * sends the option's value (else its label) into the chat as send-chat-button.
 */
export function ButtonRow({ options, bus, disabled }: { options: ButtonOption[]; bus: ChatBus; disabled?: boolean }) {
  return (
    <Space wrap className="chat-button-row" data-testid="button-row">
      {options.map((o) => (
        <Button
          key={o.label}
          shape="round"
          type="primary"
          ghost
          disabled={disabled}
          onClick={() => bus.emit("send-chat-button", { text: o.value ?? o.label, flag: true })}
        >
          {o.label}
        </Button>
      ))}
    </Space>
  );
}

/** A reply's widget by its kind: the button row here, the others through the renderers the shell gave. */
export function WidgetView({ widget, bus }: WidgetRendererProps) {
  const renderers = useWidgetRenderers();
  if (widget.config.kind === "buttons") return <ButtonRow options={widget.config.options} bus={bus} />;
  const Renderer = renderers[widget.config.kind];
  return Renderer ? (
    <div className="chat-widget" data-testid={`chat-widget-${widget.config.kind}`}>
      <Renderer widget={widget} bus={bus} />
    </div>
  ) : null;
}
