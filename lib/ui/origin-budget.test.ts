import { describe, expect, it } from "vitest";
import type { PolicyView } from "../messages";
import { withOriginAutoApprove } from "./origin-budget";

const policy: PolicyView = {
  globalCaps: { USD: { day: "5000000" } },
  origins: {
    "https://known.example": {
      currency: "USD",
      amount: "2000000",
      period: "week",
      autoApproveUpTo: "0",
      perCallMax: "500000",
    },
  },
  receivers: { allow: [], deny: [] },
  networks: ["eip155:84532"],
  assets: [],
  trustedRegistries: [],
};
const fresh = { currency: "USD", dailyBudget: "1000000" };

describe("withOriginAutoApprove", () => {
  it("changes only the threshold of an existing budget", () => {
    const next = withOriginAutoApprove(policy, "https://known.example", "10000", fresh);
    expect(next.origins["https://known.example"]).toEqual({
      currency: "USD",
      amount: "2000000",
      period: "week",
      autoApproveUpTo: "10000",
      perCallMax: "500000",
    });
    expect(policy.origins["https://known.example"]?.autoApproveUpTo).toBe("0");
    expect(next.globalCaps).toBe(policy.globalCaps);
  });
  it("gives a new site a daily budget whose per-call maximum is the day's budget", () => {
    const next = withOriginAutoApprove(policy, "https://new.example", "20000", fresh);
    expect(next.origins["https://new.example"]).toEqual({
      currency: "USD",
      amount: "1000000",
      period: "day",
      autoApproveUpTo: "20000",
      perCallMax: "1000000",
    });
  });
  it("turning auto-approve off for a site without a budget changes nothing", () => {
    expect(withOriginAutoApprove(policy, "https://new.example", "0", fresh)).toBe(policy);
  });
});
