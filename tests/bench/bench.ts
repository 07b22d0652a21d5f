import type { BenchResult } from "./report";

/** One timed operation. `prepare` does the set-up that is not measured and returns the operation. */
export interface Bench {
  name: string;
  prepare(): Promise<Operation>;
}

export type Operation = () => Promise<unknown>;

/** A line "numerator / denominator" printed under the table, by bench name. */
export interface Ratio {
  label: string;
  numerator: string;
  denominator: string;
}

/** What a bench module contributes to `npm run bench`. */
export interface BenchSuite {
  title: string;
  benches: Bench[];
  ratios: Ratio[];
}

/** What a self-running bench hands back to print: timings with ratios, or a plain table. */
export type Section = { title: string; notes: string[] } & (
  | { kind: "timings"; results: BenchResult[]; ratios: Ratio[] }
  | { kind: "table"; header: string[]; rows: string[][] }
);

export interface RunOptions {
  /** Small counts for a short run while developing (`npm run bench -- --quick`). */
  quick: boolean;
}

/**
 * A bench that does not fit "prepare() → operation": it drives browsers or reads build output
 * itself, times on its own clocks (page, receiver), and returns sections to print.
 */
export interface BrowserBench {
  title: string;
  run(options: RunOptions): Promise<Section[]>;
}
