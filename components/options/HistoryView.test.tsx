import { describe, expect, it } from "vitest";
import { tabMovedTo } from "./HistoryView";

// Accessibility review: ArrowLeft on "Settings" did nothing, and each tab was a Tab stop of its own.
describe("tabMovedTo", () => {
  it("moves between the tabs with the arrow keys, round the ends, and to the first and last", () => {
    expect(tabMovedTo("ArrowRight", "history")).toBe("settings");
    expect(tabMovedTo("ArrowRight", "settings")).toBe("history");
    expect(tabMovedTo("ArrowLeft", "settings")).toBe("history");
    expect(tabMovedTo("ArrowLeft", "history")).toBe("settings");
    expect(tabMovedTo("Home", "settings")).toBe("history");
    expect(tabMovedTo("End", "history")).toBe("settings");
  });

  it("leaves every other key to the tab", () => {
    expect(tabMovedTo("Enter", "history")).toBeUndefined();
    expect(tabMovedTo("ArrowDown", "history")).toBeUndefined();
  });
});
