export interface Stats {
  iterations: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
}

/** Median and nearest-rank p95 of per-iteration times in milliseconds. */
export function summarize(samplesMs: readonly number[]): Stats {
  if (samplesMs.length === 0) throw new RangeError("summarize needs at least one sample");
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const at = (index: number) => sorted[Math.min(Math.max(index, 0), sorted.length - 1)] ?? 0;
  const middle = sorted.length / 2;
  const medianMs =
    sorted.length % 2 === 0 ? (at(middle - 1) + at(middle)) / 2 : at(Math.floor(middle));
  return {
    iterations: sorted.length,
    medianMs,
    p95Ms: at(Math.ceil(0.95 * sorted.length) - 1),
    minMs: at(0),
  };
}
