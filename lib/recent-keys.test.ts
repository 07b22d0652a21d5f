import { describe, expect, it } from "vitest";
import { RecentKeys } from "./recent-keys";

describe("RecentKeys", () => {
  it("keeps the last keys added, forgetting the oldest first; a key added again is new", () => {
    const recent = new RecentKeys(2);
    recent.add("a");
    recent.add("b");
    recent.add("a");
    recent.add("c");
    expect(["a", "b", "c"].map((key) => recent.has(key))).toEqual([true, false, true]);
  });

  it("takes a key once", () => {
    const recent = new RecentKeys(4);
    recent.add("a");
    expect(recent.take("a")).toBe(true);
    expect(recent.take("a")).toBe(false);
    expect(recent.has("a")).toBe(false);
  });
});
