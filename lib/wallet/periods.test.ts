import { describe, expect, it } from "vitest";
import { periodKey } from "./periods";

const at = (iso: string) => Date.parse(iso);

describe("periodKey", () => {
  it("renews the day at 00:00:00.000 UTC", () => {
    expect(periodKey("day", at("2026-11-30T23:59:59.999Z"))).toBe("2026-11-30");
    expect(periodKey("day", at("2026-12-01T00:00:00.000Z"))).toBe("2026-12-01");
  });

  it("uses UTC, not the local offset of the timestamp's origin", () => {
    expect(periodKey("day", at("2026-11-30T23:30:00-05:00"))).toBe("2026-12-01");
  });

  it("starts weeks on Monday 00:00 UTC", () => {
    // 2026-11-29 is a Sunday, 2026-11-30 a Monday.
    expect(periodKey("week", at("2026-11-29T23:59:59.999Z"))).toBe("2026-11-23");
    expect(periodKey("week", at("2026-11-30T00:00:00.000Z"))).toBe("2026-11-30");
    expect(periodKey("week", at("2026-12-06T23:59:59.999Z"))).toBe("2026-11-30");
    expect(periodKey("week", at("2026-12-07T00:00:00.000Z"))).toBe("2026-12-07");
  });

  it("keeps a week that spans a year end together", () => {
    // 2027-01-01 is a Friday; its week began Monday 2026-12-28.
    expect(periodKey("week", at("2027-01-01T12:00:00Z"))).toBe("2026-12-28");
  });

  it("renews the month on the 1st, whatever the month's length", () => {
    expect(periodKey("month", at("2026-04-30T23:59:59.999Z"))).toBe("2026-04");
    expect(periodKey("month", at("2026-05-01T00:00:00.000Z"))).toBe("2026-05");
    expect(periodKey("month", at("2026-01-31T23:59:59.999Z"))).toBe("2026-01");
    expect(periodKey("month", at("2026-02-01T00:00:00.000Z"))).toBe("2026-02");
    expect(periodKey("month", at("2026-12-31T23:59:59.999Z"))).toBe("2026-12");
    expect(periodKey("month", at("2027-01-01T00:00:00.000Z"))).toBe("2027-01");
  });

  it("handles February in leap and common years", () => {
    expect(periodKey("day", at("2028-02-29T12:00:00Z"))).toBe("2028-02-29");
    expect(periodKey("month", at("2028-02-29T23:59:59.999Z"))).toBe("2028-02");
    expect(periodKey("month", at("2028-03-01T00:00:00.000Z"))).toBe("2028-03");
    expect(periodKey("month", at("2027-02-28T23:59:59.999Z"))).toBe("2027-02");
    expect(periodKey("month", at("2027-03-01T00:00:00.000Z"))).toBe("2027-03");
    // Tuesday 2028-02-29 belongs to the week of Monday 2028-02-28.
    expect(periodKey("week", at("2028-02-29T12:00:00Z"))).toBe("2028-02-28");
  });

  it("never renews 'none'", () => {
    expect(periodKey("none", 0)).toBe("all");
    expect(periodKey("none", at("2099-01-01T00:00:00Z"))).toBe("all");
  });
});
