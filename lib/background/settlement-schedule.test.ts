import { describe, expect, it } from "vitest";
import { RETRY_FAILED_PASS_MS, SettlementSchedule } from "./settlement-schedule";

/** A schedule whose passes find nothing, counted. */
function countingSchedule() {
  const counted = { passes: 0 };
  const schedule = new SettlementSchedule({
    track: async () => {
      counted.passes++;
      return undefined;
    },
    schedule: async () => undefined,
  });
  return { schedule, counted };
}

describe("SettlementSchedule", () => {
  it("runs one pass at a time, one more for what was asked meanwhile, then arms the next", async () => {
    let passes = 0;
    let release: () => void = () => undefined;
    const armed: (number | undefined)[] = [];
    const schedule = new SettlementSchedule({
      track: async () => {
        passes++;
        if (passes === 1) await new Promise<void>((resolve) => (release = resolve));
        return 1_000 * passes;
      },
      schedule: async (at) => {
        armed.push(at);
      },
    });
    const first = schedule.run();
    const second = schedule.run();
    const third = schedule.run();
    release();
    await Promise.all([first, second, third]);
    expect(passes).toBe(2);
    expect(armed).toEqual([2_000]);
    await schedule.run();
    expect(passes).toBe(3);
    expect(armed).toEqual([2_000, 3_000]);
  });

  it("runs once, a moment after the last of a burst of requests", async () => {
    const { schedule, counted } = countingSchedule();
    for (let i = 0; i < 5; i++) schedule.soon(20);
    expect(counted.passes).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(counted.passes).toBe(1);
  });

  it("runs within its longest wait of the first request, however long requests keep coming", async () => {
    const { schedule, counted } = countingSchedule();
    const started = Date.now();
    // A request every 10 ms, each asking for a pass 30 ms later, at most 100 ms after the first.
    while (counted.passes === 0 && Date.now() - started < 1_000) {
      schedule.soon(30, 100);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Pushed back by every request, it would not have run before the loop gave up.
    expect(counted.passes).toBe(1);
  });

  it("arms a retry when a pass fails, as the alarm that started it has fired", async () => {
    const armed: (number | undefined)[] = [];
    const schedule = new SettlementSchedule({
      track: async () => {
        throw new Error("database closed");
      },
      schedule: async (at) => {
        armed.push(at);
      },
    });
    const before = Date.now();
    await expect(schedule.run()).rejects.toThrow("database closed");
    expect(armed).toHaveLength(1);
    expect(armed[0]).toBeGreaterThanOrEqual(before + RETRY_FAILED_PASS_MS);
    expect(armed[0]).toBeLessThanOrEqual(Date.now() + RETRY_FAILED_PASS_MS);
  });

  it("arms the alarm for a look by a time unless it already fires sooner, and again after a pass under way", async () => {
    const armed: (number | undefined)[] = [];
    let passes = 0;
    let release: () => void = () => undefined;
    const schedule = new SettlementSchedule({
      track: async () => {
        passes++;
        if (passes === 1) await new Promise<void>((resolve) => (release = resolve));
        return undefined;
      },
      schedule: async (at) => {
        armed.push(at);
      },
    });
    await schedule.lookBy(5_000);
    await schedule.lookBy(6_000);
    expect(armed).toEqual([5_000]);
    await schedule.lookBy(4_000);
    expect(armed).toEqual([5_000, 4_000]);
    // A pass that may have read the payments before the one just signed: the alarm it arms
    // when it ends (here it found nothing due) fires by the time asked for, with no pass at once.
    const pass = schedule.run();
    await schedule.lookBy(3_000);
    await schedule.lookBy(3_500);
    release();
    await pass;
    expect(passes).toBe(1);
    expect(armed).toEqual([5_000, 4_000, 3_000]);
    await schedule.lookBy(7_000);
    expect(armed).toEqual([5_000, 4_000, 3_000]);
  });

  it("keeps its own next look after a pass when that comes before the one asked meanwhile", async () => {
    const armed: (number | undefined)[] = [];
    let release: () => void = () => undefined;
    const schedule = new SettlementSchedule({
      track: async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return 2_000;
      },
      schedule: async (at) => {
        armed.push(at);
      },
    });
    const pass = schedule.run();
    await schedule.lookBy(9_000);
    release();
    await pass;
    expect(armed).toEqual([2_000]);
  });

  it("does not keep running while payments keep being signed during its passes", {
    timeout: 3_000,
  }, async () => {
    let passes = 0;
    const schedule = new SettlementSchedule({
      track: async () => {
        passes++;
        await new Promise((resolve) => setTimeout(resolve, 1));
        // A payment signed while each pass runs, as an agent paying steadily does.
        await schedule.lookBy(Date.now() + 30_000);
        return undefined;
      },
      schedule: async () => undefined,
    });
    await schedule.run();
    expect(passes).toBe(1);
  });
});
