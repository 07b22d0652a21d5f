import { describe, expect, it } from "vitest";
import { identifySender } from "./sender";

const ID = "abcdefghijklmnop";
const BASE = `chrome-extension://${ID}/`;

describe("identifySender", () => {
  it("recognises the wallet's own pages by URL, in a window or a tab", () => {
    expect(identifySender({ id: ID, url: `${BASE}popup.html` }, ID, BASE)).toEqual({
      kind: "extension",
      url: `${BASE}popup.html`,
    });
    expect(
      identifySender({ id: ID, url: `${BASE}options.html`, tab: { id: 4 } }, ID, BASE),
    ).toStrictEqual({ kind: "extension", url: `${BASE}options.html`, tabId: 4 });
  });

  it("takes a page's origin from the browser's sender, preferring Chrome's `origin`", () => {
    expect(
      identifySender(
        { id: ID, url: "https://agent.example/chat?x=1", tab: { id: 7 }, frameId: 0 },
        ID,
        BASE,
      ),
    ).toEqual({ kind: "page", origin: "https://agent.example", tabId: 7, frameId: 0 });
    expect(
      identifySender(
        { id: ID, url: "https://agent.example/", origin: "https://framed.example", tab: { id: 7 } },
        ID,
        BASE,
      ),
    ).toMatchObject({ origin: "https://framed.example" });
  });

  it("says a frame is inside another page, even when that page has no web origin", () => {
    const framed = (tabUrl: string | undefined, frameId: number) =>
      identifySender(
        { id: ID, url: "https://agent.example/", tab: { id: 7, url: tabUrl }, frameId },
        ID,
        BASE,
      );
    expect(framed("https://evil.example/x", 3)).toMatchObject({
      topOrigin: "https://evil.example",
    });
    expect(framed("file:///home/me/evil.html", 3)).toMatchObject({ topOrigin: "null" });
    expect(framed(undefined, 3)).toMatchObject({ topOrigin: "null" });
    // The top page itself: its own origin, or none known (never "framed").
    expect(framed("https://agent.example/chat", 0)).toMatchObject({
      topOrigin: "https://agent.example",
    });
    expect(framed(undefined, 0)).not.toHaveProperty("topOrigin");
  });

  it("refuses other extensions, opaque origins and non-web schemes", () => {
    expect(identifySender({ id: "other", url: `${BASE}popup.html` }, ID, BASE).kind).toBe(
      "unknown",
    );
    expect(identifySender({ id: ID }, ID, BASE).kind).toBe("unknown");
    expect(
      identifySender({ id: ID, url: "https://a.example/", origin: "null" }, ID, BASE).kind,
    ).toBe("unknown");
    expect(identifySender({ id: ID, url: "file:///etc/passwd" }, ID, BASE).kind).toBe("unknown");
    expect(identifySender({ id: ID, url: "not a url" }, ID, BASE).kind).toBe("unknown");
  });
});
