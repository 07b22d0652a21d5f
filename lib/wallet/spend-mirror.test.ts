import { describe, expect, it } from "vitest";
import { putSums } from "../../tests/unit-support/wallet/put-sums";
import { openWalletDb } from "../db/schema";
import { type SumSlot, sumSlotsToCharge } from "./limits";
import type { PolicySettings } from "./policy-settings";
import { SpendMirror } from "./spend-mirror";

describe("SpendMirror", () => {
  it("reads each sum from the database once, then serves and updates it from memory", async () => {
    const db = openWalletDb(`mirror-${crypto.randomUUID()}`);
    const [a, b] = sumSlotsToCharge("https://a", "USD", Date.parse("2026-11-30T08:00:00Z"));
    if (!a || !b) throw new Error("no slots");
    await putSums(db, [[a, 7n]]);
    const mirror = new SpendMirror(db);
    expect(await mirror.read([a, b])).toEqual(
      new Map([
        [a.key, 7n],
        [b.key, 0n],
      ]),
    );
    // Written behind its back: the mirror keeps what it read...
    await putSums(db, [[a, 100n]]);
    expect((await mirror.read([a])).get(a.key)).toBe(7n);
    // ...takes what a charge committed...
    mirror.committed(new Map([[a.key, 12n]]));
    expect((await mirror.read([a])).get(a.key)).toBe(12n);
    // ...and reads afresh once told to forget.
    mirror.forget();
    expect((await mirror.read([a])).get(a.key)).toBe(100n);
    await db.delete();
  });
});

describe("SpendMirror after a clock set back", () => {
  it("keeps one period per sum, so a charge counted in a later period leaves none of it stale", async () => {
    const db = openWalletDb(`mirror-${crypto.randomUUID()}`);
    const [dec1] = sumSlotsToCharge("https://a", "USD", Date.parse("2026-12-01T00:00:05Z"));
    const [nov30] = sumSlotsToCharge("https://a", "USD", Date.parse("2026-11-30T23:59:55Z"));
    if (!dec1 || !nov30) throw new Error("no slots");
    await putSums(db, [[dec1, 10n]]);
    const mirror = new SpendMirror(db);
    expect((await mirror.read([dec1])).get(dec1.key)).toBe(10n);
    // The clock set back reads December 1's sum; a charge then counts 5 more in it.
    expect((await mirror.read([nov30])).get(nov30.key)).toBe(10n);
    await putSums(db, [[nov30, 15n]]);
    mirror.committed(new Map([[nov30.key, 15n]]));
    expect((await mirror.read([dec1])).get(dec1.key)).toBe(15n);
    await db.delete();
  });
});

describe("SpendMirror.spentFor", () => {
  const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
  const settings: PolicySettings = {
    globalCaps: {},
    origins: {},
    receivers: { allow: [], deny: [] },
    networks: ["eip155:8453"],
    assets: [{ network: "eip155:8453", asset: USDC, decimals: 6, symbol: "USDC", currency: "USD" }],
  };
  const option = { network: "eip155:8453", asset: USDC, amount: 1n, decimals: 6 } as const;

  it("reads the sums of the payment's currency and origin for the current periods", async () => {
    const db = openWalletDb(`spent-${crypto.randomUUID()}`);
    const yesterday = sumSlotsToCharge("https://a", "USD", Date.parse("2026-11-29T08:00:00Z"));
    const today = sumSlotsToCharge("https://a", "USD", Date.parse("2026-11-30T08:00:00Z"));
    await putSums(db, [[yesterday[0] as SumSlot, 99n]]);
    await putSums(db, [
      [today[0] as SumSlot, 40n],
      [today[5] as SumSlot, 5n],
    ]);
    const spent = await new SpendMirror(db).spentFor(
      settings,
      "https://a",
      option,
      Date.parse("2026-11-30T08:00:00Z"),
    );
    expect(spent.get("global:USD:day:2026-11-30")).toBe(40n);
    expect(spent.get("origin:https://a:USD:none:all")).toBe(5n);
    expect(spent.has("global:USD:day:2026-11-29")).toBe(false);
    expect(spent.size).toBe(7);
  });

  it("is empty for an option the settings cannot count", async () => {
    const db = openWalletDb(`spent-${crypto.randomUUID()}`);
    const spent = await new SpendMirror(db).spentFor(
      settings,
      "https://a",
      { ...option, network: "eip155:1" },
      0,
    );
    expect(spent.size).toBe(0);
  });
});
