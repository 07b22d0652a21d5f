import { describe, expect, it } from "vitest";
import { measure } from "./measure";

const sleep = (ms: number) => () => new Promise((resolve) => setTimeout(resolve, ms));

describe("measure", () => {
  it("runs the warm-up untimed, then the operations in turn for each timed round", async () => {
    const calls: string[] = [];
    const stats = await measure([async () => calls.push("a"), async () => calls.push("b")], {
      warmup: 1,
      iterations: 2,
    });
    expect(calls).toEqual(["a", "b", "a", "b", "a", "b"]);
    expect(stats.map((s) => s.iterations)).toEqual([2, 2]);
  });

  it("reports each operation's own time, in the order given", async () => {
    const [fast, slow] = await measure([sleep(1), sleep(30)], { warmup: 0, iterations: 3 });
    // Timers may fire a little late, never much earlier than asked.
    expect(slow?.minMs).toBeGreaterThanOrEqual(25);
    expect(fast?.medianMs).toBeLessThan(slow?.medianMs ?? 0);
  });
});
