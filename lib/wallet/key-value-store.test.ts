import { beforeEach, describe, expect, it } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { storageAreaStore } from "./key-value-store";

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
