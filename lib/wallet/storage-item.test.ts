import { describe, expect, it } from "vitest";
import { memoryStore } from "../../tests/unit-support/wallet/memory-store";
import { readItem, removeItem, storageItem, writeItem } from "./storage-item";

const minutes = storageItem<number>("minutes", (stored) =>
  typeof stored === "number" ? stored : undefined,
);

describe("storage items", () => {
  it("write, read back typed, and remove one declared key", async () => {
    const store = memoryStore();
    expect(await readItem(store, minutes)).toBeUndefined();
    await writeItem(store, minutes, 15);
    expect(await store.get("minutes")).toBe(15);
    expect(await readItem(store, minutes)).toBe(15);
    await removeItem(store, minutes);
    expect(await store.get("minutes")).toBeUndefined();
  });

  it("read a value of the wrong shape as absent", async () => {
    const store = memoryStore();
    await store.set("minutes", "fifteen");
    expect(await readItem(store, minutes)).toBeUndefined();
  });
});
