import { describe, expect, it } from "vitest";
import { seedPayment } from "../../tests/unit-support/payments/test-support";
import { openWalletDb } from "../db/schema";
import { randomId } from "../random-id";
import { paymentWarnings } from "./warnings";

const ORIGIN = "https://a.example";
const RECEIVER = "https://r1.example";
const input = { origin: ORIGIN, receiver: RECEIVER, verified: true, amount: 100n, testnet: false };

describe("paymentWarnings", () => {
  it("names the chain kind, an unverified receiver and a first payment", async () => {
    const db = openWalletDb(`warnings-${randomId()}`);
    expect(await paymentWarnings(db, input)).toEqual(["mainnet", "first-payment-to-receiver"]);
    expect(await paymentWarnings(db, { ...input, verified: false, testnet: true })).toEqual([
      "testnet",
      "unverified-receiver",
      "first-payment-to-receiver",
    ]);
  });

  it("counts only paid payments as paid before, and warns far above the site's median", async () => {
    const db = openWalletDb(`warnings-${randomId()}`);
    await seedPayment(db, { createdAt: 1, state: "declined", reason: "no", amount: "1" });
    expect(await paymentWarnings(db, input)).toContain("first-payment-to-receiver");

    for (const [createdAt, amount] of [
      [2, "10"],
      [3, "10"],
      [4, "12"],
    ] as const) {
      await seedPayment(db, { createdAt, state: "signed", amount });
    }
    expect(await paymentWarnings(db, input)).toEqual(["mainnet"]);
    expect(await paymentWarnings(db, { ...input, amount: 101n })).toEqual([
      "mainnet",
      "far-above-usual",
    ]);
    expect(
      await paymentWarnings(db, { ...input, origin: "https://b.example", amount: 101n }),
    ).toEqual(["mainnet"]);
  });
});
