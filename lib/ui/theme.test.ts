// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { STORAGE_KEYS } from "../storage-keys";
import { applyTheme, followTheme, readTheme, saveTheme } from "./theme";

const root = () => document.documentElement;

afterEach(() => {
  localStorage.clear();
  root().className = "";
});

describe("readTheme", () => {
  it("is the system's theme until the person picks one, and when the stored value is not a theme", () => {
    expect(readTheme(localStorage)).toBe("system");
    localStorage.setItem(STORAGE_KEYS.theme, "sepia");
    expect(readTheme(localStorage)).toBe("system");
    localStorage.setItem(STORAGE_KEYS.theme, "dark");
    expect(readTheme(localStorage)).toBe("dark");
  });
});

describe("applyTheme", () => {
  it("puts one class on the root for a fixed theme, none to follow the system", () => {
    applyTheme(document, "dark");
    expect([...root().classList]).toEqual(["dark"]);
    applyTheme(document, "light");
    expect([...root().classList]).toEqual(["light"]);
    applyTheme(document, "system");
    expect([...root().classList]).toEqual([]);
  });
});

describe("saveTheme", () => {
  it("keeps a fixed theme and shows it; the system's theme is kept as no entry", () => {
    saveTheme(window, "light");
    expect(localStorage.getItem(STORAGE_KEYS.theme)).toBe("light");
    expect(root().classList.contains("light")).toBe(true);
    saveTheme(window, "system");
    expect(localStorage.getItem(STORAGE_KEYS.theme)).toBeNull();
    expect(root().className).toBe("");
  });
});

describe("followTheme", () => {
  it("shows the stored theme at once, and a theme another wallet page picked when it does", () => {
    localStorage.setItem(STORAGE_KEYS.theme, "dark");
    followTheme(window);
    expect(root().classList.contains("dark")).toBe(true);
    // Another page's change: the storage is already written when the event arrives.
    localStorage.setItem(STORAGE_KEYS.theme, "light");
    window.dispatchEvent(new StorageEvent("storage", { key: STORAGE_KEYS.theme }));
    expect([...root().classList]).toEqual(["light"]);
    localStorage.removeItem(STORAGE_KEYS.theme);
    window.dispatchEvent(new StorageEvent("storage", { key: "something else" }));
    expect([...root().classList]).toEqual(["light"]);
    window.dispatchEvent(new StorageEvent("storage", { key: null }));
    expect([...root().classList]).toEqual([]);
  });
});
