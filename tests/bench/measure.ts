import type { Operation } from "./bench";
import { type Stats, summarize } from "./stats";

export interface MeasureOptions {
  warmup: number;
  iterations: number;
}

/** Runs `operation` `warmup` times untimed (JIT, caches), then times each of `iterations` runs. */
export async function measure(operation: Operation, options: MeasureOptions): Promise<Stats> {
  for (let i = 0; i < options.warmup; i++) await operation();
  const samples: number[] = [];
  for (let i = 0; i < options.iterations; i++) {
    const start = performance.now();
    await operation();
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}
