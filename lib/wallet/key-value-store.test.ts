import { beforeEach, describe, expect, it } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { memoryStore, storageAreaStore } from "./key-value-store";

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

describe("storageAreaStore", () => {
  beforeEach(() => fakeBrowser.reset());

  it("reads and writes single keys of a WebExtension storage area", async () => {
    const store = storageAreaStore(fakeBrowser.storage.session);
    await store.set("stipendex.session", { salt: "s" });
    expect(await fakeBrowser.storage.session.get("stipendex.session")).toEqual({
      "stipendex.session": { salt: "s" },
    });
    expect(await store.get("stipendex.session")).toEqual({ salt: "s" });
    expect(await store.get("absent")).toBeUndefined();
    await store.remove("stipendex.session");
    expect(await store.get("stipendex.session")).toBeUndefined();
  });
});
