import type { Operation } from "./bench";
import { type Stats, summarize } from "./stats";

export interface MeasureOptions {
  warmup: number;
  iterations: number;
}

/**
 * Runs every operation `warmup` times untimed (JIT, caches), then times `iterations` rounds. Each
 * round runs the operations in turn, so load from other processes falls on all of them alike and
 * their ratio stays fair on a shared machine.
 */
export async function measure(
  operations: readonly Operation[],
  options: MeasureOptions,
): Promise<Stats[]> {
  return (await sampleRounds(operations, options)).map(summarize);
}

/** `measure`'s rounds, each operation's durations (ms) as timed, for a caller that pools them. */
export async function sampleRounds(
  operations: readonly Operation[],
  options: MeasureOptions,
): Promise<number[][]> {
  for (let i = 0; i < options.warmup; i++) {
    for (const operation of operations) await operation();
  }
  const samples = operations.map((): number[] => []);
  for (let i = 0; i < options.iterations; i++) {
    for (const [index, operation] of operations.entries()) {
      const start = performance.now();
      await operation();
      samples[index]?.push(performance.now() - start);
    }
  }
  return samples;
}
