// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { unisolatedBidi } from "../../tests/unit-support/ui/bidi";
import { isolated } from "./bidi";

describe("isolated", () => {
  it("closes whatever direction its text opens before the text that follows", () => {
    const sentence = `Paid ${isolated("Pay Co \u202E")} for ${isolated("search")}`;
    expect(sentence).toBe("Paid \u2068Pay Co \u202E\u2069 for \u2068search\u2069");
    const root = document.createElement("p");
    root.textContent = sentence;
    expect(unisolatedBidi(root)).toEqual([]);
    root.textContent = "Paid Pay Co \u202E for search";
    expect(unisolatedBidi(root)).toEqual(["Paid Pay Co \u202E for search"]);
  });
});
