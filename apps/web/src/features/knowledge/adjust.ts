import type { SegmentAdjustments } from "@agentfair/contracts";
import type { PreviewSegment } from "./api/preview";

/** The wizard's adjustments of one file's preview, by position (what the commit sends as `adjust`). */
export interface Adjustments {
  edits: Record<number, string>;
  deletes: number[];
}
export const NO_ADJUSTMENTS: Adjustments = { edits: {}, deletes: [] };

/**
 * The previewed segments after the adjustments: the same rule the server applies to the same parse
 * (deleted positions gone, an edited one with its new content and marked edited), so the list shown
 * is the list stored.
 */
export function applyAdjustments(segments: PreviewSegment[], a: Adjustments): PreviewSegment[] {
  const deleted = new Set(a.deletes);
  return segments
    .filter((s) => !deleted.has(s.position))
    .map((s) => {
      const content = a.edits[s.position]?.trim();
      return content !== undefined && content !== s.content
        ? { ...s, content, ...(s.question !== undefined ? { answer: content } : {}), edited: true }
        : s;
    });
}

export const editSegment = (a: Adjustments, position: number, content: string): Adjustments => ({
  ...a,
  edits: { ...a.edits, [position]: content },
});

export const deleteSegment = (a: Adjustments, position: number): Adjustments => ({
  edits: Object.fromEntries(Object.entries(a.edits).filter(([p]) => Number(p) !== position)),
  deletes: [...a.deletes, position],
});

/** Merges a shown segment with the next shown one: the first gets both texts, the next is deleted. */
export function mergeWithNext(shown: PreviewSegment[], a: Adjustments, position: number): Adjustments {
  const i = shown.findIndex((s) => s.position === position);
  const next = shown[i + 1];
  if (i < 0 || !next) return a;
  return deleteSegment(editSegment(a, position, `${shown[i].content}\n${next.content}`), next.position);
}

/** The request body's form; nothing when nothing was adjusted. */
export function toRequest(a: Adjustments): SegmentAdjustments | undefined {
  const edits = Object.entries(a.edits).map(([p, content]) => ({ position: Number(p), content: content.trim() }));
  if (!edits.length && !a.deletes.length) return undefined;
  return { edits, deletes: a.deletes };
}
