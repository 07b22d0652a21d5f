import { describe, expect, it } from "vitest";
import {
  KEPT_NAME_CHARS,
  KEPT_VALUE_CHARS,
  LISTED_ARGUMENTS,
  shownArguments,
} from "./tool-arguments";

describe("shownArguments", () => {
  it('lists each argument by name, its value as JSON (a string quoted, so 7 and "7" read apart)', () => {
    expect(shownArguments({ city: "Paris", days: 7, tags: ["a"] })).toEqual({
      listed: [
        { name: { text: "city", omitted: 0 }, value: { text: '"Paris"', omitted: 0 } },
        { name: { text: "days", omitted: 0 }, value: { text: "7", omitted: 0 } },
        { name: { text: "tags", omitted: 0 }, value: { text: '[\n  "a"\n]', omitted: 0 } },
      ],
      unlisted: 0,
    });
  });

  it("lists none for a call sent without arguments, or with none in them", () => {
    expect(shownArguments(undefined)).toEqual({ listed: [], unlisted: 0 });
    expect(shownArguments({})).toEqual({ listed: [], unlisted: 0 });
  });

  it("shows arguments that are not an object whole, as one value without a name", () => {
    expect(shownArguments(["x", 1])).toEqual({
      listed: [{ value: { text: '[\n  "x",\n  1\n]', omitted: 0 } }],
      unlisted: 0,
    });
  });

  it("keeps a bounded part of a megabyte value or name, saying how many characters it left out", () => {
    const value = "😀".repeat(1_000_000);
    const name = "n".repeat(5_000);
    const [entry] = shownArguments({ [name]: value }).listed;
    // Characters, not UTF-16 units: the cut never splits an emoji in two.
    expect(Array.from(entry?.value.text ?? "")).toHaveLength(KEPT_VALUE_CHARS);
    expect(entry?.value.text.startsWith('"😀')).toBe(true);
    expect(entry?.value.omitted).toBe(1_000_002 - KEPT_VALUE_CHARS);
    expect(entry?.name).toEqual({
      text: "n".repeat(KEPT_NAME_CHARS),
      omitted: 5_000 - KEPT_NAME_CHARS,
    });
  });

  // Indented, 32 levels of the page's megabyte would be some 30 MB in the background, for 1,000 characters.
  it("shows a long value compact: only a short one is indented", () => {
    let deep: unknown = new Array(100_000).fill(0);
    for (let level = 1; level < 30; level++) deep = [deep];
    const [entry] = shownArguments({ deep }).listed;
    const compact = JSON.stringify(deep);
    expect(entry?.value).toEqual({
      text: compact.slice(0, KEPT_VALUE_CHARS),
      omitted: compact.length - KEPT_VALUE_CHARS,
    });
  });

  it("lists the first arguments of many and counts the others", () => {
    const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`a${i}`, i]));
    const shown = shownArguments(many);
    expect(shown.listed).toHaveLength(LISTED_ARGUMENTS);
    expect(shown.listed[0]?.name?.text).toBe("a0");
    expect(shown.unlisted).toBe(5_000 - LISTED_ARGUMENTS);
  });
});
