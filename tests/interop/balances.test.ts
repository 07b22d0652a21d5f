import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { watchBalances } from "./balances";

const PAYER: Address = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const PAY_TO: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

/** A token ledger in memory: the helper only reads balances, so this is all of its contract. */
function ledger(start: Record<Address, bigint>) {
  const balances = new Map(Object.entries(start) as [Address, bigint][]);
  return {
    balanceOf: async (owner: Address) => balances.get(owner) ?? 0n,
    move(from: Address, to: Address, amount: bigint) {
      balances.set(from, (balances.get(from) ?? 0n) - amount);
      balances.set(to, (balances.get(to) ?? 0n) + amount);
    },
  };
}

describe("watchBalances", () => {
  it("returns the action's result with what the payer lost and payTo gained", async () => {
    const token = ledger({ [PAYER]: 1_000n, [PAY_TO]: 7n });
    const change = await watchBalances(token, PAYER, PAY_TO, async () => {
      token.move(PAYER, PAY_TO, 250n);
      return "0xtx";
    });
    expect(change).toEqual({ result: "0xtx", paid: 250n, received: 250n });
  });

  it("reports zero both ways when the action moves nothing", async () => {
    const token = ledger({ [PAYER]: 1_000n });
    expect(await watchBalances(token, PAYER, PAY_TO, async () => false)).toEqual({
      result: false,
      paid: 0n,
      received: 0n,
    });
  });
});
