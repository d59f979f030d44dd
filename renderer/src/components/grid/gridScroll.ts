/**
 * Where the grid's box must scroll so a row shows whole below the header that stays at its top, or
 * null when it shows already. Rows are all one height; the header is part of what scrolls, held at
 * the top (so the list's own idea of what is in view, which knows nothing of the header, is not
 * enough at the bottom edge).
 */
export function scrollTopToShow(view: {
  scrollTop: number;
  clientHeight: number;
  headerHeight: number;
  rowIndex: number;
  rowHeight: number;
}): number | null {
  const top = view.headerHeight + view.rowIndex * view.rowHeight;
  const bottom = top + view.rowHeight;
  if (top - view.headerHeight < view.scrollTop) return Math.max(0, top - view.headerHeight);
  if (bottom > view.scrollTop + view.clientHeight) return bottom - view.clientHeight;
  return null;
}

/**
 * Where the grid's box must scroll sideways so a column shows whole (in a narrow window, or at a
 * high zoom, the columns are wider than the box), or null when it shows already. When the column
 * is wider than the box, its start is shown.
 */
export function scrollLeftToShow(view: {
  scrollLeft: number;
  clientWidth: number;
  /** Every column's width, the row numbers' first. */
  widths: readonly number[];
  /** The column's index in `widths`. */
  index: number;
}): number | null {
  const left = view.widths.slice(0, view.index).reduce((a, b) => a + b, 0);
  const right = left + (view.widths[view.index] ?? 0);
  if (left < view.scrollLeft || right - left > view.clientWidth)
    return left === view.scrollLeft ? null : left;
  if (right > view.scrollLeft + view.clientWidth) return right - view.clientWidth;
  return null;
}
