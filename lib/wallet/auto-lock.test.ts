import { describe, expect, it } from "vitest";
import { autoLockAt, shouldAutoLock } from "./auto-lock";

const T = Date.UTC(2026, 10, 30, 12, 0, 0);

describe("autoLockAt", () => {
  it("is the last activity plus the auto-lock minutes", () => {
    expect(autoLockAt(T, 15)).toBe(T + 15 * 60_000);
  });

  it("refuses zero, negative and fractional minutes, naming the value", () => {
    expect(() => autoLockAt(T, 0)).toThrow(
      expect.objectContaining({ name: "WalletError", code: "invalid-auto-lock" }),
    );
    expect(() => autoLockAt(T, -5)).toThrow(/got -5/);
    expect(() => autoLockAt(T, 1.5)).toThrow(
      expect.objectContaining({ name: "WalletError", code: "invalid-auto-lock" }),
    );
  });
});

describe("shouldAutoLock", () => {
  it("stays unlocked until the limit and locks at it", () => {
    expect(shouldAutoLock(T + 15 * 60_000 - 1, T, 15)).toBe(false);
    expect(shouldAutoLock(T + 15 * 60_000, T, 15)).toBe(true);
    expect(shouldAutoLock(T + 60 * 60_000, T, 15)).toBe(true);
  });

  it("restarts the count from new activity", () => {
    expect(shouldAutoLock(T + 20 * 60_000, T + 10 * 60_000, 15)).toBe(false);
  });
});
