import { describe, expect, it } from "vitest";
import { describeRemaining } from "./remaining";

describe("describeRemaining", () => {
  it("names each limit by scope and period, with exact amounts", () => {
    expect(
      describeRemaining([
        { scope: "global", period: "day", currency: "USD", micro: 4_990_000n },
        { scope: "global", period: "month", currency: "USD", micro: 50_000_000n },
        { scope: "origin", period: "week", currency: "USD", micro: 5n },
      ]),
    ).toEqual({
      "All sites, today": "4.99 USD",
      "All sites, this month": "50 USD",
      "This site, this week": "0.000005 USD",
    });
  });
});
