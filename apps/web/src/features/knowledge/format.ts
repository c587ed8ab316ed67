import dayjs from "dayjs";

/** Times as the spec shows them: YYYY-MM-DD HH:mm:ss. */
export const formatTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format("YYYY-MM-DD HH:mm:ss") : "");

/** A file size for people: B, KB or MB. */
export function formatSize(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
