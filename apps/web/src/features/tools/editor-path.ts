import type { Plugin } from "@agentfair/contracts";

/** A tool's editor: /knowledge-list?id={id}&pluginType={type} (doc 2 §2). */
export const editorPath = (p: Pick<Plugin, "id" | "pluginType">) => `/knowledge-list?id=${p.id}&pluginType=${p.pluginType}`;
