export interface WindowRange {
  /** First row to render. */
  start: number;
  /** One past the last row to render. */
  end: number;
}

/** Rows to render for a fixed-height list: those in view plus `overscan` on each side. */
export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  total: number,
  overscan: number,
): WindowRange {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const inView = Math.ceil(viewportHeight / rowHeight) + 1;
  const start = Math.max(0, Math.min(first, total) - overscan);
  const end = Math.min(total, first + inView + overscan);
  return { start, end: Math.max(start, end) };
}
