import { describe, expect, it } from "vitest";
import { Withdrawals } from "./withdrawals";

describe("Withdrawals", () => {
  it("keeps a withdrawal of a request in flight whatever else is withdrawn, and after it", async () => {
    const withdrawals = new Withdrawals(2);
    let seen: boolean[] = [];
    await withdrawals.during("mine", async () => {
      withdrawals.add("mine");
      for (const key of ["a", "b", "c"]) withdrawals.add(key);
      seen = [withdrawals.has("mine"), withdrawals.has("a"), withdrawals.has("c")];
    });
    expect(seen).toEqual([true, false, true]);
    // Done: remembered among the recent ones, for a request asked again.
    expect(withdrawals.has("mine")).toBe(true);
  });

  it("keeps it while any call for the request is still in flight", async () => {
    const withdrawals = new Withdrawals(1);
    let release = () => {};
    const second = new Promise<void>((resolve) => {
      release = resolve;
    });
    const outer = withdrawals.during("k", () => second);
    await withdrawals.during("k", async () => withdrawals.add("k"));
    withdrawals.add("other");
    expect(withdrawals.has("k")).toBe(true);
    release();
    await outer;
    expect(withdrawals.has("k")).toBe(true);
  });

  it("remembers the last ones withdrawn before their request came", async () => {
    const withdrawals = new Withdrawals(1);
    withdrawals.add("early");
    expect(await withdrawals.during("early", async () => withdrawals.has("early"))).toBe(true);
    withdrawals.add("later");
    expect(withdrawals.has("early")).toBe(false);
    expect(await withdrawals.during(undefined, async () => "ran")).toBe("ran");
  });

  it("forgets nothing it never held: a request not withdrawn stays paid for", async () => {
    const withdrawals = new Withdrawals(4);
    expect(await withdrawals.during("k", async () => withdrawals.has("k"))).toBe(false);
    expect(withdrawals.has("k")).toBe(false);
  });

  it("says a request is being worked on while any call for it is in flight, and not after", async () => {
    const withdrawals = new Withdrawals(1);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = withdrawals.during("k", () => held);
    await withdrawals.during("k", async () => undefined);
    expect(withdrawals.working("k")).toBe(true);
    expect(withdrawals.working("other")).toBe(false);
    release();
    await first;
    expect(withdrawals.working("k")).toBe(false);
  });
});
