export * from "./auth.ts";
export * from "./common.ts";
export * from "./chat.ts";
export * from "./chat-stream.ts";
export * from "./models.ts";
export * from "./billing.ts";
export * from "./agents.ts";
export * from "./files.ts";
