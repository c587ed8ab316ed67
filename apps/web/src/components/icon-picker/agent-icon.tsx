import { RobotOutlined } from "@ant-design/icons";
import { BUILTIN_ICON_COUNT, fileDataPath } from "@agentfair/contracts";
import { type ComponentType, lazy, Suspense } from "react";
import { BUILTIN_ICON_LOADERS } from "./builtin-icon-loaders";

/**
 * A few emoji names the data may carry; any other text is shown as it is (it may be an emoji itself).
 * "robot", the default (and no icon at all), is drawn as antd's robot icon: the 🤖 emoji is an empty
 * box on a machine without an emoji font.
 */
const EMOJI: Record<string, string> = {
  smile: "😊",
  star: "⭐",
  rocket: "🚀",
  book: "📚",
  money: "💰",
  chart: "📈",
  bulb: "💡",
};

/** The icon of a value without one (the picker stores it when nothing was chosen). */
export const DEFAULT_ICON_NAME = "robot";

type IconProps = { style?: React.CSSProperties };
const loaded = new Map<number, ComponentType<IconProps>>();
/** A built-in icon by its index, its code loaded on first use and kept (one lazy component each). */
function builtinIcon(index: number) {
  let Icon = loaded.get(index);
  if (!Icon) {
    Icon = lazy(BUILTIN_ICON_LOADERS[index]);
    loaded.set(index, Icon);
  }
  return Icon;
}

/** Light backgrounds get a coloured glyph, dark ones a white glyph. */
function glyphColor(bg: string) {
  const m = /^#([0-9a-f]{6})$/i.exec(bg);
  if (!m) return "#165dff";
  const n = Number.parseInt(m[1], 16);
  const lum = (0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
  return lum > 0.7 ? "#165dff" : "#fff";
}

/**
 * An agent's icon (doc 1 §3): '#<id>' an uploaded file, a number a built-in image,
 * otherwise an emoji name.
 */
export function AgentIcon({ icon, background, size = 48, label }: { icon: string; background: string; size?: number; label?: string }) {
  // Named (e.g. by the agent's name) where the icon stands for the agent; decorative otherwise.
  const a11y = label ? { role: "img", "aria-label": label } : {};
  const box: React.CSSProperties = {
    width: size,
    height: size,
    borderRadius: size / 4,
    background: background || "#e8f3ff",
    display: "inline-flex",
    alignItems: "center",
    justifyContent: "center",
    overflow: "hidden",
    flex: "none",
  };
  if (icon.startsWith("#")) {
    return (
      <span style={box} data-testid="agent-icon" {...a11y}>
        <img src={fileDataPath(icon.slice(1))} alt="" style={{ width: "100%", height: "100%", objectFit: "cover" }} />
      </span>
    );
  }
  if (/^\d+$/.test(icon)) {
    const Icon = builtinIcon((Number(icon) - 1 + BUILTIN_ICON_COUNT) % BUILTIN_ICON_COUNT);
    return (
      <span style={box} data-testid="agent-icon" {...a11y}>
        <Suspense fallback={null}>
          <Icon style={{ fontSize: size * 0.5, color: glyphColor(background) }} />
        </Suspense>
      </span>
    );
  }
  if (icon === "" || icon === DEFAULT_ICON_NAME) {
    return (
      <span style={box} data-testid="agent-icon" data-icon="default" {...a11y}>
        <RobotOutlined style={{ fontSize: size * 0.5, color: glyphColor(background) }} />
      </span>
    );
  }
  return (
    <span style={{ ...box, fontSize: size * 0.5 }} data-testid="agent-icon" {...a11y}>
      {EMOJI[icon] ?? icon}
    </span>
  );
}
