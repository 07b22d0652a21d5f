import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import {
  formatCount,
  formatDateTime,
  formatDateTimeLong,
  formatUtcDay,
  formatUtcMonth,
  uiLocale,
} from "./locale-format";

/** 2025-03-01 23:30:05 UTC: already 2 March in Tokyo (UTC+9), still 1 March in UTC. */
const LATE_ON_MARCH_1 = Date.UTC(2025, 2, 1, 23, 30, 5);

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("uiLocale", () => {
  it("takes the browser's UI language", () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
    expect(uiLocale()).toBe("de");
    expect(uiLocale("ja")).toBe("ja");
    expect(uiLocale("en-US")).toBe("en-US");
  });
  it("falls back to English for a tag Intl has no data for, or that is not a tag", () => {
    expect(uiLocale("zz")).toBe("en");
    expect(uiLocale("not a tag")).toBe("en");
    expect(uiLocale("")).toBe("en");
  });
});

describe("formatCount", () => {
  it("groups digits the way the language does", () => {
    expect(formatCount(1_234_567, "en")).toBe("1,234,567");
    expect(formatCount(1_234_567, "de")).toBe("1.234.567");
    expect(formatCount(1_234_567, "ja")).toBe("1,234,567");
    expect(formatCount(1_234_567, uiLocale("zz"))).toBe("1,234,567");
  });
  it("uses the browser's UI language when not told", () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
    expect(formatCount(100_000)).toBe("100.000");
  });
});

describe("dates and times", () => {
  beforeEach(() => {
    // Node takes a new TZ at once: the person's time zone, 9 hours ahead of UTC.
    vi.stubEnv("TZ", "Asia/Tokyo");
  });
  it("writes an instant in the person's time zone and language", () => {
    expect(formatDateTime(LATE_ON_MARCH_1, "en")).toBe("3/2/25, 8:30:05 AM");
    expect(formatDateTime(LATE_ON_MARCH_1, "de")).toBe("02.03.25, 08:30:05");
    expect(formatDateTime(LATE_ON_MARCH_1, "ja")).toBe("2025/03/02 8:30:05");
    expect(formatDateTime(LATE_ON_MARCH_1, uiLocale("zz"))).toBe("3/2/25, 8:30:05 AM");
  });
  it("writes an instant in full with the time zone's name", () => {
    expect(formatDateTimeLong(LATE_ON_MARCH_1, "en")).toBe("March 2, 2025 at 8:30:05 AM GMT+9");
    expect(formatDateTimeLong(LATE_ON_MARCH_1, "de")).toBe("2. März 2025 um 08:30:05 GMT+9");
    expect(formatDateTimeLong(LATE_ON_MARCH_1, "ja")).toBe("2025年3月2日 8:30:05 JST");
  });
  it("keeps a UTC day and month the same calendar day and month in every time zone", () => {
    expect(formatUtcDay("2025-03-01", "en")).toBe("Mar 1, 2025");
    expect(formatUtcDay("2025-03-01", "de")).toBe("01.03.2025");
    expect(formatUtcDay("2025-03-01", "ja")).toBe("2025/03/01");
    expect(formatUtcDay("2025-03-01", uiLocale("zz"))).toBe("Mar 1, 2025");
    vi.stubEnv("TZ", "America/Los_Angeles");
    expect(formatUtcDay("2025-03-01", "en")).toBe("Mar 1, 2025");
    expect(formatUtcMonth("2025-03", "en")).toBe("March 2025");
    expect(formatUtcMonth("2025-03", "de")).toBe("März 2025");
    expect(formatUtcMonth("2025-03", "ja")).toBe("2025年3月");
  });
});
