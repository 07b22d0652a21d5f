import { afterEach, describe, expect, it } from "vitest";
import { openWalletDb, type PaymentRecord, type WalletDb } from "../db/schema";
import { readAllSums, readSums, recount, spentForPayment } from "./budget-sums";
import type { PolicySettings } from "./policy-settings";

let db: WalletDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

describe("readSums / readAllSums", () => {
  it("reads running sums as bigints, absent keys as 0", async () => {
    db = openWalletDb(`sums-${crypto.randomUUID()}`);
    await db.budgetSums.bulkPut([
      { key: "global:USD:day:2026-11-30", amount: "123456789012345678901", updatedAt: 1 },
      { key: "global:USD:month:2026-11", amount: "7", updatedAt: 1 },
    ]);
    expect(await readSums(db, ["global:USD:day:2026-11-30", "absent"])).toEqual(
      new Map([
        ["global:USD:day:2026-11-30", 123456789012345678901n],
        ["absent", 0n],
      ]),
    );
    expect((await readAllSums(db)).size).toBe(2);
  });
});

describe("spentForPayment", () => {
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
    db = openWalletDb(`spent-${crypto.randomUUID()}`);
    await db.budgetSums.bulkPut([
      { key: "global:USD:day:2026-11-30", amount: "40", updatedAt: 1 },
      { key: "global:USD:day:2026-11-29", amount: "99", updatedAt: 1 },
      { key: "origin:https://a:USD:none:all", amount: "5", updatedAt: 1 },
    ]);
    const spent = await spentForPayment(
      db,
      settings,
      "https://a",
      option,
      Date.parse("2026-11-30T08:00:00Z"),
    );
    expect(spent.get("global:USD:day:2026-11-30")).toBe(40n);
    expect(spent.get("origin:https://a:USD:none:all")).toBe(5n);
    expect(spent.has("global:USD:day:2026-11-29")).toBe(false);
    expect(spent.size).toBe(6);
  });

  it("is empty for an option the settings cannot count", async () => {
    db = openWalletDb(`spent-${crypto.randomUUID()}`);
    const spent = await spentForPayment(
      db,
      settings,
      "https://a",
      { ...option, network: "eip155:1" },
      0,
    );
    expect(spent.size).toBe(0);
  });
});

describe("recount", () => {
  it("adds each charged payment to the sums it names and skips uncharged ones", async () => {
    db = openWalletDb(`recount-${crypto.randomUUID()}`);
    const base = { createdAt: 1, updatedAt: 1, origin: "o", receiver: "r" } as const;
    const charged = (id: string, micro: string, sumKeys: string[]) =>
      ({
        ...base,
        id,
        state: "signed",
        charge: { currency: "USD", micro, sumKeys, chargedAt: 1 },
      }) as unknown as PaymentRecord;
    await db.payments.bulkAdd([
      charged("a", "5", ["k1", "k2"]),
      charged("b", "7", ["k2"]),
      { ...base, id: "c", state: "declined" } as unknown as PaymentRecord,
    ]);
    expect(await recount(db)).toEqual(
      new Map([
        ["k1", 5n],
        ["k2", 12n],
      ]),
    );
  });
});
