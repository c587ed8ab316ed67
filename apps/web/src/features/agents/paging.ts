/**
 * Doc 1 §4: when the current page is past the end (its last item was deleted), step back to
 * the new last page. Returns the page to show, or null when the current one is fine.
 */
export function stepBackPage(page: number, itemsOnPage: number, total: number, size: number): number | null {
  if (itemsOnPage > 0 || page <= 1) return null;
  return Math.max(1, Math.ceil(total / size));
}
