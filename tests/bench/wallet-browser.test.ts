import { describe, expect, it } from "vitest";
import type { PolicyView } from "../../lib/messages";
import { BENCH_BUDGET, benchPolicy } from "./wallet-browser";

const policy: PolicyView = {
  globalCaps: { USD: { day: "5000000", month: "50000000" }, EUR: { day: "1" } },
  origins: {
    "https://other.example": {
      currency: "USD",
      amount: "5",
      period: "week",
      autoApproveUpTo: "1",
      perCallMax: "5",
    },
  },
  receivers: { allow: [], deny: [] },
  networks: ["eip155:84532"],
  assets: [],
  trustedRegistries: [],
};

describe("benchPolicy", () => {
  it("raises the test-USD caps and auto-approves the origin up to the bench budget, keeping the rest", () => {
    const raised = benchPolicy(policy, "http://127.0.0.1:1234");
    expect(raised.globalCaps).toEqual({
      USD: { day: "5000000", month: "50000000" },
      "test USD": { day: BENCH_BUDGET, month: BENCH_BUDGET },
      EUR: { day: "1" },
    });
    expect(raised.origins["http://127.0.0.1:1234"]).toEqual({
      currency: "test USD",
      amount: BENCH_BUDGET,
      period: "day",
      autoApproveUpTo: BENCH_BUDGET,
      perCallMax: BENCH_BUDGET,
    });
    expect(raised.origins["https://other.example"]).toEqual(
      policy.origins["https://other.example"],
    );
    expect(raised.networks).toEqual(policy.networks);
  });
});
