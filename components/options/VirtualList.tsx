import { type ReactNode, useEffect, useState } from "react";
import { visibleRange } from "@/lib/ui/windowing";

export interface VirtualListProps {
  label: string;
  count: number;
  /** Every row has this height in pixels: positions are computed, never measured. */
  rowHeight: number;
  /** Height of the scrolling viewport in pixels. */
  height: number;
  overscan?: number;
  renderRow(index: number): ReactNode;
  /** Told which rows are rendered, so their data can be fetched. */
  onRangeChange?(start: number, end: number): void;
}

/** A list that renders only the rows in view (plus overscan), however long it is. */
export function VirtualList({
  label,
  count,
  rowHeight,
  height,
  overscan = 8,
  renderRow,
  onRangeChange,
}: VirtualListProps) {
  const [scrollTop, setScrollTop] = useState(0);
  const { start, end } = visibleRange(scrollTop, height, rowHeight, count, overscan);
  useEffect(() => onRangeChange?.(start, end), [start, end, onRangeChange]);
  const rows: ReactNode[] = [];
  for (let index = start; index < end; index++) {
    rows.push(
      <li
        key={index}
        aria-posinset={index + 1}
        aria-setsize={count}
        style={{
          position: "absolute",
          top: index * rowHeight,
          height: rowHeight,
          left: 0,
          right: 0,
        }}
      >
        {renderRow(index)}
      </li>,
    );
  }
  return (
    // Keyboard users scroll it with PageUp/PageDown from a focused row's button.
    <div
      className="overflow-y-auto rounded border border-slate-200 focus-visible:outline-2 focus-visible:outline-emerald-600 dark:border-slate-800"
      style={{ height }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <ul aria-label={label} style={{ position: "relative", height: count * rowHeight }}>
        {rows}
      </ul>
    </div>
  );
}
