// @vitest-environment happy-dom
import { act, createElement } from "react";
import { describe, expect, it } from "vitest";
import { mount } from "./mount";

describe("mount", () => {
  it("names the page with the title it is given (the page's HTML has none to translate)", async () => {
    document.body.innerHTML = '<div id="root"></div>';
    await act(async () =>
      mount(createElement("p", null, "content"), "Confirm payment — Stipendex Wallet"),
    );
    expect(document.title).toBe("Confirm payment — Stipendex Wallet");
    expect(document.getElementById("root")?.textContent).toBe("content");
  });
});
