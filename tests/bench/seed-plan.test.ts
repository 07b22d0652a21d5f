import { describe, expect, it } from "vitest";
import { seedPlan } from "./seed-plan";

const now = Date.parse("2026-11-30T12:00:00Z");
const origin = "http://127.0.0.1:5000";

describe("seedPlan", () => {
  const plan = seedPlan({ count: 60, now, days: 60, origin, currency: "USD", micro: 1_000n });

  it("spaces the payments evenly back from now, newest first", () => {
    expect(plan.createdAt).toHaveLength(60);
    expect(plan.createdAt[0]).toBe(now - 1);
    expect(plan.createdAt[1]).toBe(now - 1 - 86_400_000);
    expect(plan.createdAt.at(-1)).toBe(now - 1 - 59 * 86_400_000);
  });

  it("sums one charge per payment into each day, month and origin key", () => {
    expect(plan.sums["global:USD:day:2026-11-30"]).toBe("1000");
    // 2026-10-02 .. 2026-10-31 is 30 days, 2026-11-01 .. 2026-11-30 another 30.
    expect(plan.sums["global:USD:month:2026-11"]).toBe("30000");
    expect(plan.sums["global:USD:month:2026-10"]).toBe("30000");
    expect(plan.sums[`origin:${origin}:USD:none:all`]).toBe("60000");
    expect(plan.monthTotal).toBe(30_000n);
  });

  it("keeps each row's latest periods and every day of the history, as charging one by one would", () => {
    const row = (key: string) => plan.rows.find((r) => r.key === key)?.periods;
    expect(row("global:USD")).toEqual({
      day: { at: "2026-11-30", amount: "1000" },
      month: { at: "2026-11", amount: "30000" },
    });
    expect(row(`origin:${origin}:USD`)?.none).toEqual({ at: "all", amount: "60000" });
    expect(row("daily:USD:2026-10-02")).toEqual({ day: { at: "2026-10-02", amount: "1000" } });
    expect(plan.rows).toHaveLength(2 + 60);
  });
});
