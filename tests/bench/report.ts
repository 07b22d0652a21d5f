import type { Ratio, Section } from "./bench";
import type { Stats } from "./stats";

export interface BenchResult {
  name: string;
  stats: Stats;
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

/** The median of `numerator` over that of `denominator`, by bench name. */
export function medianRatio(results: readonly BenchResult[], ratio: Ratio): number {
  const median = (name: string) => {
    const found = results.find((result) => result.name === name);
    if (!found) throw new RangeError(`ratio "${ratio.label}" names no bench called "${name}"`);
    return found.stats.medianMs;
  };
  return median(ratio.numerator) / median(ratio.denominator);
}

/** Aligned plain-text columns: the first left-aligned, the others right-aligned. */
export function formatTable(header: readonly string[], rows: readonly string[][]): string[] {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  ");
  return [line(header), ...rows.map(line)];
}

/** A plain-text table of one suite's results, then its ratios of medians. */
export function formatReport(
  title: string,
  results: readonly BenchResult[],
  ratios: readonly Ratio[],
): string {
  const header = ["bench", "iterations", "median", "p95", "min"];
  const rows = results.map(({ name, stats }) => [
    name,
    String(stats.iterations),
    ms(stats.medianMs),
    ms(stats.p95Ms),
    ms(stats.minMs),
  ]);
  const ratioLines = ratios.map(
    (ratio) =>
      `${ratio.label}: ${medianRatio(results, ratio).toFixed(2)}x (median ${ratio.numerator} / ${ratio.denominator})`,
  );
  return [title, ...formatTable(header, rows), ...ratioLines].join("\n");
}

/** One section of a self-running bench: its timings or table, then its notes. */
export function formatSection(section: Section): string {
  const body =
    section.kind === "timings"
      ? formatReport(section.title, section.results, section.ratios)
      : [section.title, ...formatTable(section.header, section.rows)].join("\n");
  return [body, ...section.notes].join("\n");
}
