import dayjs from "dayjs";

/** Times as the spec shows them: YYYY-MM-DD HH:mm:ss. */
export const formatTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format("YYYY-MM-DD HH:mm:ss") : "");

/** A size for people: B, KB, MB or GB. */
export function formatSize(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
}
