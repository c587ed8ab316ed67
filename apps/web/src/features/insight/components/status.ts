/** The tag colours of a report's or an analysis's status. */
export const statusColor = { PENDING: "default", RUNNING: "processing", DONE: "success", FAILED: "error" } as const;
