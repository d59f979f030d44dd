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
