import { describe, expect, it } from "vitest";
import {
  APPROVE_RENDERED,
  browserSection,
  DOM_CONTENT_LOADED,
  FIRST_FRAME,
  NAVIGATION_START,
  type WindowMarks,
  type WindowRound,
} from "./confirm-window";

/** A window whose clock runs `behindMs` behind the receiver's, its 402 sent at `sentAt`. */
function round(sentAt: number, behindMs: number, marks: Partial<WindowMarks> = {}): WindowRound {
  const windowTime = (receiverTime: number) => receiverTime - behindMs;
  return {
    sentAt,
    writeMs: 0.05,
    marks: {
      navigationStart: windowTime(sentAt + 30),
      domContentLoaded: windowTime(sentAt + 80),
      via: "init script",
      approve: windowTime(sentAt + 90),
      frame: windowTime(sentAt + 95),
      readings: [0, 0.1, 0.2],
      // A 2 ms round trip with the receiver reading its clock halfway.
      pings: [
        {
          sentAt: windowTime(sentAt + 200),
          receiverAt: sentAt + 201,
          receivedAt: windowTime(sentAt + 202),
        },
      ],
      ...marks,
    },
  };
}

describe("browserSection", () => {
  it("puts every window mark on the receiver's clock and times it from that window's 402", () => {
    const section = browserSection("Chromium", [round(1_000, 7), round(5_000, 7)], 3, "note");
    expect(section.kind).toBe("timings");
    if (section.kind !== "timings") return;
    expect(section.results.map(({ name, stats }) => [name, stats.medianMs])).toEqual([
      [`Chromium: ${NAVIGATION_START}`, 30],
      [`Chromium: ${DOM_CONTENT_LOADED}`, 80],
      [`Chromium: ${APPROVE_RENDERED}`, 90],
      [`Chromium: ${FIRST_FRAME}`, 95],
    ]);
    expect(section.title).toContain("Chromium: 2 confirmation windows after 3 warm-up");
    expect(section.notes.join("\n")).toContain("window clock + 7.000 ms = receiver clock");
    // Half the 2 ms round trip plus the 0.1 ms clock step, then one more step for t1 itself.
    expect(section.notes.join("\n")).toContain("within ±1.200 ms");
    expect(section.notes.join("\n")).toContain("init script in 2 of 2 windows");
  });

  it("takes the clock's step from the window that saw the smallest: one that lost the CPU while reading saw a jump", () => {
    const section = browserSection(
      "Chromium",
      [round(1_000, 7), round(5_000, 7, { readings: [0, 5.3] })],
      3,
      "note",
    );
    if (section.kind !== "timings") throw new Error("expected timings");
    expect(section.notes.join("\n")).toContain("within ±1.200 ms");
  });

  it("leaves out a mark some window did not have rather than count it for some", () => {
    const section = browserSection(
      "Firefox",
      [round(0, 0), round(1_000, 0, { domContentLoaded: undefined, via: "wallet page" })],
      0,
      "note",
    );
    if (section.kind !== "timings") throw new Error("expected timings");
    expect(section.results.map(({ name }) => name)).toEqual([
      `Firefox: ${NAVIGATION_START}`,
      `Firefox: ${APPROVE_RENDERED}`,
      `Firefox: ${FIRST_FRAME}`,
    ]);
    expect(section.notes.join("\n")).toContain("init script in 1 of 2 windows");
  });
});
