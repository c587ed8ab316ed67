/** An ILIKE pattern matching text that contains `part` as typed: its %, _ and \ match only themselves. */
export const containing = (part: string) => `%${part.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
