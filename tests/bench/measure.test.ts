import { describe, expect, it } from "vitest";
import { measure } from "./measure";

describe("measure", () => {
  it("runs the warm-up untimed and times exactly the asked iterations", async () => {
    let calls = 0;
    const stats = await measure(
      async () => {
        calls++;
      },
      { warmup: 3, iterations: 7 },
    );
    expect(calls).toBe(10);
    expect(stats.iterations).toBe(7);
  });

  it("reports the time an operation takes", async () => {
    const stats = await measure(() => new Promise((resolve) => setTimeout(resolve, 20)), {
      warmup: 0,
      iterations: 3,
    });
    // Timers may fire a little early or late, never much earlier than asked.
    expect(stats.minMs).toBeGreaterThanOrEqual(15);
    expect(stats.medianMs).toBeGreaterThanOrEqual(stats.minMs);
  });
});
