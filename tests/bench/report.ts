import type { Ratio } from "./bench";
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
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  ");
  const ratioLines = ratios.map(
    (ratio) =>
      `${ratio.label}: ${medianRatio(results, ratio).toFixed(2)}x (median ${ratio.numerator} / ${ratio.denominator})`,
  );
  return [title, line(header), ...rows.map(line), ...ratioLines].join("\n");
}
