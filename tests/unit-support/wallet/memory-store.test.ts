import { describe, expect, it } from "vitest";
import { memoryStore } from "./memory-store";

describe("memoryStore", () => {
  it("sets, gets and removes values, returning copies", async () => {
    const store = memoryStore();
    const value = { a: [1, 2] };
    await store.set("k", value);
    value.a.push(3);
    expect(await store.get("k")).toEqual({ a: [1, 2] });
    const read = (await store.get("k")) as { a: number[] };
    read.a.push(9);
    expect(await store.get("k")).toEqual({ a: [1, 2] });
    await store.remove("k");
    expect(await store.get("k")).toBeUndefined();
  });
});
