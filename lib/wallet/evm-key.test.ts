import { describe, expect, it } from "vitest";
import type { WalletErrorCode } from "./errors";
import { parseEvmPrivateKey } from "./evm-key";

const walletError = (code: WalletErrorCode) =>
  expect.objectContaining({ name: "WalletError", code });

const KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

describe("parseEvmPrivateKey", () => {
  it("accepts 32-byte hex with or without 0x and normalises to lowercase 0x-hex", () => {
    expect(parseEvmPrivateKey(KEY)).toBe(KEY);
    expect(parseEvmPrivateKey(` ${KEY.slice(2).toUpperCase()} `)).toBe(KEY);
  });

  it("accepts the ends of the curve range, 1 and n-1", () => {
    expect(parseEvmPrivateKey(`0x${"0".repeat(63)}1`)).toBe(`0x${"0".repeat(63)}1`);
    const nMinus1 = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140";
    expect(parseEvmPrivateKey(nMinus1)).toBe(`0x${nMinus1}`);
  });

  it("refuses a wrong length, saying how long it was", () => {
    expect(() => parseEvmPrivateKey(KEY.slice(0, -2))).toThrow(walletError("invalid-private-key"));
    expect(() => parseEvmPrivateKey(KEY.slice(0, -2))).toThrow(/got 62 hex digits/);
  });

  it("refuses non-hex characters without echoing the key", () => {
    const bad = `${KEY.slice(0, -1)}g`;
    expect(() => parseEvmPrivateKey(bad)).toThrow(/hex digits only/);
    try {
      parseEvmPrivateKey(bad);
    } catch (error) {
      expect((error as Error).message).not.toContain(KEY.slice(2, 20));
    }
  });

  it("refuses 0 and keys at or above the group order", () => {
    expect(() => parseEvmPrivateKey("0".repeat(64))).toThrow(/outside the secp256k1 range/);
    const n = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
    expect(() => parseEvmPrivateKey(n)).toThrow(walletError("invalid-private-key"));
    expect(() => parseEvmPrivateKey("f".repeat(64))).toThrow(walletError("invalid-private-key"));
  });
});
