import { describe, expect, it } from "vitest";
import { makeReplayable } from "./replay";

describe("makeReplayable", () => {
  it("sends the paid retry to the URL that was priced, with its header, never through a redirect", async () => {
    const replayable = makeReplayable(
      "/start",
      { method: "POST", body: "q=1", headers: { "x-page": "kept" } },
      "https://agent.example/chat",
    );
    const retry = replayable.replay(
      { "Stipendex-Payment": "proof" },
      undefined,
      "https://api.example/priced",
    );
    expect(retry.url).toBe("https://api.example/priced");
    expect(retry.redirect).toBe("manual");
    expect(retry.method).toBe("POST");
    expect(retry.headers.get("stipendex-payment")).toBe("proof");
    expect(retry.headers.get("x-page")).toBe("kept");
    expect(await retry.text()).toBe("q=1");
  });

  // Red-team review: a body whose toString changes was made text again for the paid retry.
  it("sends the paid retry the text an object body had when fetch was called", async () => {
    let calls = 0;
    const body = { toString: () => `call ${++calls}` } as unknown as BodyInit;
    const replayable = makeReplayable("/a", { method: "POST", body }, "https://agent.example/");
    expect(replayable.first?.[1]?.body).toBe("call 1");
    expect(await replayable.replay({}).text()).toBe("call 1");
    expect(calls).toBe(1);
    // A Blob is kept as the Blob it is: told by its tag, as one from another frame would be.
    const foreign = new Blob(["bytes"]);
    expect(
      makeReplayable("/a", { method: "POST", body: foreign }, "https://a.example/").first?.[1]
        ?.body,
    ).toBe(foreign);
  });

  it("retries the page's own URL when no priced URL is given", () => {
    const retry = makeReplayable("/a", undefined, "https://agent.example/").replay({});
    expect(retry.url).toBe("https://agent.example/a");
    expect(retry.redirect).toBe("manual");
  });
});
