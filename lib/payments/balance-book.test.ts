import { describe, expect, it } from "vitest";
import { BalanceBook } from "./balance-book";

const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

function book(onChain: () => bigint | undefined) {
  const clock = { ms: 1_000 };
  let reads = 0;
  const balances = new BalanceBook({
    read: async () => {
      reads++;
      return onChain();
    },
    now: () => clock.ms,
  });
  return { balances, clock, reads: () => reads };
}

describe("BalanceBook", () => {
  it("reads when asked, lowers what it knows by each payment, and reads again once old", async () => {
    let chain: bigint | undefined = 10_000n;
    const { balances, clock, reads } = book(() => chain);
    expect(balances.peek("eip155:84532", USDC)).toBeUndefined();
    expect(await balances.current("eip155:84532", USDC)).toEqual({
      available: 10_000n,
      readAt: 1_000,
    });
    balances.spent("eip155:84532", USDC, 4_000n);
    expect(balances.peek("eip155:84532", USDC)?.available).toBe(6_000n);
    // The peek started the read the window then waited for: one read.
    expect(reads()).toBe(1);
    clock.ms += 61_000;
    chain = 9_000n;
    expect(balances.peek("eip155:84532", USDC)?.available).toBe(6_000n);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(balances.peek("eip155:84532", USDC)?.available).toBe(9_000n);
    chain = undefined;
    balances.forget();
    expect(await balances.current("eip155:84532", USDC)).toBeUndefined();
  });

  it("waits for a token it never tried, and not again for a while when it could not be read", async () => {
    let reads = 0;
    const balances = new BalanceBook({
      read: () => {
        reads++;
        return Promise.resolve(undefined);
      },
      now: () => 0,
    });
    expect(await balances.current("eip155:1", USDC)).toBeUndefined();
    expect(await balances.current("eip155:1", USDC)).toBeUndefined();
    expect(reads).toBe(1);
  });

  it("gives the window what it knew when the network is slow", async () => {
    let slow = false;
    const balances = new BalanceBook({
      read: () => (slow ? new Promise(() => undefined) : Promise.resolve(5n)),
      now: () => 0,
    });
    await balances.current("eip155:1", USDC);
    slow = true;
    balances.forget();
    expect(await balances.current("eip155:1", USDC, 10)).toBeUndefined();
  });

  // Black-box review: a top-up made since the last read left the window saying "Not enough
  // funds" with a negative balance for up to a minute.
  it("reads again for the window a copy too low for the payment, once a few seconds old", async () => {
    let chain = 1_000n;
    const { balances, clock, reads } = book(() => chain);
    await balances.current("eip155:84532", USDC);
    chain = 50_000n;
    // Just read: the low copy stands (no read per request a page makes).
    expect((await balances.current("eip155:84532", USDC, 100, 5_000n))?.available).toBe(1_000n);
    clock.ms += 6_000;
    // Enough for the payment: the copy stands until it is old.
    expect((await balances.current("eip155:84532", USDC, 100, 500n))?.available).toBe(1_000n);
    expect(reads()).toBe(1);
    expect((await balances.current("eip155:84532", USDC, 100, 5_000n))?.available).toBe(50_000n);
    expect(reads()).toBe(2);
  });
});
