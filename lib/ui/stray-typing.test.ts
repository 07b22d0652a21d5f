// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { isStrayTyping } from "./stray-typing";

/** `key` pressed with focus on `target` (the page's body unless given). */
function press(key: string, target: Element = document.body, init: KeyboardEventInit = {}) {
  let seen: KeyboardEvent | undefined;
  const listen = (event: Event) => {
    seen = event as KeyboardEvent;
  };
  window.addEventListener("keydown", listen);
  target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, ...init }));
  window.removeEventListener("keydown", listen);
  if (!seen) throw new Error("no keydown reached the window");
  return isStrayTyping(seen);
}

describe("isStrayTyping", () => {
  it("is typing that reached no field: characters, emoji, deletions, an input method composing", () => {
    for (const key of ["a", "Z", " ", ".", "é", "😀", "Backspace", "Delete", "Process"]) {
      expect(press(key), key).toBe(true);
    }
    expect(press("a", document.body, { isComposing: true })).toBe(true);
  });

  it("is not a key that types nothing, nor a shortcut", () => {
    for (const key of ["Enter", "Escape", "Tab", "Shift", "ArrowDown", "F5"]) {
      expect(press(key), key).toBe(false);
    }
    expect(press("c", document.body, { ctrlKey: true })).toBe(false);
    expect(press("v", document.body, { metaKey: true })).toBe(false);
  });

  it("is not typing into a field, nor a key on a control the person moved to", () => {
    document.body.innerHTML =
      '<input id="f"><textarea id="t"></textarea><button id="b">Approve</button><div contenteditable="true"><span id="c">x</span></div><h2 id="h" tabindex="-1">Payment</h2>';
    for (const id of ["f", "t", "b", "c"]) {
      const target = document.getElementById(id);
      if (!target) throw new Error(id);
      expect(press("a", target), id).toBe(false);
    }
    const heading = document.getElementById("h");
    if (!heading) throw new Error("h");
    expect(press("a", heading)).toBe(true);
  });
});
