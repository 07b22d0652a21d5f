import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { activeTabOrigin, webOrigin } from "./tab-origin";

describe("webOrigin", () => {
  it("keeps scheme, host and a non-default port only", () => {
    expect(webOrigin("https://agent.example/chat?x=1#y")).toBe("https://agent.example");
    expect(webOrigin("http://localhost:5173/a")).toBe("http://localhost:5173");
    expect(webOrigin("https://agent.example:443/")).toBe("https://agent.example");
  });
  it("has no origin for browser pages and junk", () => {
    expect(webOrigin("chrome://extensions")).toBeUndefined();
    expect(webOrigin("about:blank")).toBeUndefined();
    expect(webOrigin("not a url")).toBeUndefined();
    expect(webOrigin(undefined)).toBeUndefined();
  });
});

describe("activeTabOrigin", () => {
  afterEach(() => vi.restoreAllMocks());
  it("asks for the active tab of the current window and reads its origin", async () => {
    // The fake browser cannot mark a created tab active, so the query is stubbed.
    const query = vi
      .spyOn(fakeBrowser.tabs, "query")
      .mockResolvedValue([{ url: "https://agent.example/run/1" } as Browser.tabs.Tab]);
    expect(await activeTabOrigin()).toBe("https://agent.example");
    expect(query).toHaveBeenCalledWith({ active: true, currentWindow: true });
    query.mockResolvedValue([]);
    expect(await activeTabOrigin()).toBeUndefined();
  });
});
