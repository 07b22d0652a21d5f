// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { unisolatedBidi } from "../../tests/unit-support/ui/bidi";
import { formattingShown, isolated } from "./bidi";

describe("isolated", () => {
  it("closes whatever direction its text opens before the text that follows", () => {
    const sentence = `Paid ${isolated("Pay Co \u202E")} for ${isolated("search")}`;
    expect(sentence).toBe("Paid \u2068Pay Co ⟨U+202E⟩\u2069 for \u2068search\u2069");
    const root = document.createElement("p");
    root.textContent = sentence;
    expect(unisolatedBidi(root)).toEqual([]);
    root.textContent = "Paid Pay Co \u202E for search";
    expect(unisolatedBidi(root)).toEqual(["Paid Pay Co \u202E for search"]);
  });
});

describe("formattingShown", () => {
  it("writes out what would reorder or hide text unseen (a reversed tool name reads as it is)", () => {
    expect(formattingShown("\u202Ehcraes_bew")).toBe("⟨U+202E⟩hcraes_bew");
    expect(formattingShown("pay\u200Bme\u2066x\u2069\u2028\u034F")).toBe(
      "pay⟨U+200B⟩me⟨U+2066⟩x⟨U+2069⟩⟨U+2028⟩⟨U+034F⟩",
    );
    expect(formattingShown("tag\u{E0041}")).toBe("tag⟨U+E0041⟩");
  });

  it("keeps the joiners scripts and emoji need, and everything visible", () => {
    for (const text of ["क्‍ष", "👩\u200D💻", "می\u200Cخواهم", "Web search — 0.005 USD ✔", "東京"]) {
      expect(formattingShown(text)).toBe(text);
    }
  });
});
