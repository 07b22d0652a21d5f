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
