import { AgentIcon } from "../icon-picker/agent-icon";

/** The agent's own icon (uploaded, built-in or emoji on its background) in the chat header and messages. */
export function AgentAvatar({ icon, background, name, size = 36 }: { icon?: string; background?: string; name?: string; size?: number }) {
  return <AgentIcon icon={icon ?? ""} background={background ?? ""} size={size} label={name} />;
}
