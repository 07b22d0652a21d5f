import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit";

const MINUTE = 60_000;

function limiter(limit: number, maxKeys = 100) {
  const clock = { ms: 0 };
  return { clock, rate: new RateLimiter({ limit, windowMs: MINUTE, maxKeys }, () => clock.ms) };
}

describe("RateLimiter", () => {
  it("gives a key `limit` tokens at once, then one per window/limit, and says how long to wait", () => {
    const { clock, rate } = limiter(30);
    for (let i = 0; i < 30; i++) expect(rate.take("a")).toBe(0);
    expect(rate.take("a")).toBe(2_000);
    expect(rate.take("b")).toBe(0);
    clock.ms = 1_500;
    expect(rate.take("a")).toBe(500);
    clock.ms = 2_000;
    expect(rate.take("a")).toBe(0);
    expect(rate.take("a")).toBe(2_000);
    clock.ms += MINUTE;
    for (let i = 0; i < 30; i++) expect(rate.take("a")).toBe(0);
    expect(rate.take("a")).toBeGreaterThan(0);
  });

  it("says how long a key would wait without taking its token", () => {
    const { clock, rate } = limiter(2);
    const waits = () => [rate.waitFor("a"), rate.waitFor("a")];
    expect(waits()).toEqual([0, 0]);
    for (const _token of [1, 2]) rate.take("a");
    expect(waits()).toEqual([30_000, 30_000]);
    clock.ms = 15_000;
    expect(waits()).toEqual([15_000, 15_000]);
    clock.ms = 30_000;
    expect([...waits(), rate.take("a"), rate.waitFor("a")]).toEqual([0, 0, 0, 30_000]);
  });

  it("remembers at most maxKeys keys, forgetting idle (refilled) ones first", () => {
    const { clock, rate } = limiter(2, 2);
    rate.take("idle");
    clock.ms = MINUTE;
    rate.take("busy");
    rate.take("busy");
    rate.take("new");
    expect(rate.size).toBe(2);
    expect(rate.take("busy")).toBeGreaterThan(0);
  });

  it("forgets the least recently seen key when none is idle, and stays bounded under 10,000 keys", () => {
    const { rate } = limiter(2, 2);
    for (const key of ["x", "x", "y", "y", "z"]) rate.take(key);
    expect(rate.take("y")).toBeGreaterThan(0);
    expect(rate.take("x")).toBe(0);
    for (let i = 0; i < 10_000; i++) rate.take(`site${i}`);
    expect(rate.size).toBe(2);
  });
});
