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

  it("retries the page's own URL when no priced URL is given", () => {
    const retry = makeReplayable("/a", undefined, "https://agent.example/").replay({});
    expect(retry.url).toBe("https://agent.example/a");
    expect(retry.redirect).toBe("manual");
  });
});
