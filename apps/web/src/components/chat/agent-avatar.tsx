import { fileDataPath } from "@agentfair/contracts";
import { Avatar } from "antd";

/** An agent's icon: an uploaded file id or URL, a built-in icon number, or the name's first letter. */
export function AgentAvatar({ icon, background, name, size = 36 }: { icon?: string; background?: string; name?: string; size?: number }) {
  const src = !icon || /^\d+$/.test(icon) ? undefined : icon.startsWith("/") || icon.startsWith("http") ? icon : fileDataPath(icon);
  return (
    <Avatar size={size} src={src} style={{ background: background || "#e8f3ff", color: "#165dff", flex: "none" }}>
      {(name ?? "A").slice(0, 1)}
    </Avatar>
  );
}
