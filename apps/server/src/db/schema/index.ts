// One file per product area; each area's tables live in schema/<area>.ts.
export * from "./platform.ts";
export * from "./tenants.ts";
export * from "./users.ts";
export * from "./auth.ts";
export * from "./chat.ts";
export * from "./models.ts";
export * from "./agents.ts";
export * from "./files.ts";
export * from "./billing.ts";
export * from "./tools.ts";
export * from "./knowledge.ts";
