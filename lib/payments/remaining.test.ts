import { describe, expect, it } from "vitest";
import { describeRemaining } from "./remaining";

describe("describeRemaining", () => {
  it("names each limit by scope and period, with exact amounts", () => {
    expect(
      describeRemaining({
        "global:USD:day": 4_990_000n,
        "global:USD:month": 50_000_000n,
        "origin:https://agent.example:8443:USD:week": 5n,
      }),
    ).toEqual({
      "All sites, today": "4.99 USD",
      "All sites, this month": "50 USD",
      "This site, this week": "0.000005 USD",
    });
  });
});
