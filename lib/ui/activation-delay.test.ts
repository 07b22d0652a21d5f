// @vitest-environment happy-dom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ACTIVATION_DELAY_MS,
  ActivationGate,
  REPEATED_PRESS_MS,
  useActivationDelay,
} from "./activation-delay";

describe("ActivationGate", () => {
  it("counts an activation only once the window has been in front for the delay", () => {
    const gate = new ActivationGate(750);
    expect(gate.counts(10_000)).toBe(false);
    expect(gate.remaining(0)).toBeUndefined();
    gate.present(true, 1000);
    expect(gate.remaining(1000)).toBe(750);
    expect(gate.counts(1749)).toBe(false);
    expect(gate.counts(1750)).toBe(true);
    expect(gate.remaining(2000)).toBe(0);
  });

  it("disarms when the window leaves the front and restarts the delay when it is back", () => {
    const gate = new ActivationGate(750);
    gate.present(true, 0);
    gate.present(false, 1000);
    expect(gate.counts(1000)).toBe(false);
    expect(gate.remaining(1000)).toBeUndefined();
    gate.present(true, 5000);
    // Still in front: a repeated report does not restart anything.
    gate.present(true, 5500);
    expect(gate.counts(5700)).toBe(false);
    expect(gate.counts(5750)).toBe(true);
  });

  it("restarts for a new request, and only counts gestures begun after that one armed", () => {
    const gate = new ActivationGate(750);
    gate.present(true, 0);
    expect(gate.counts(800)).toBe(true);
    gate.restart(900);
    // An Enter or click begun for the previous request does not carry over.
    expect(gate.counts(800)).toBe(false);
    expect(gate.counts(1600)).toBe(false);
    expect(gate.counts(1650)).toBe(true);
  });

  // Red-team review: once the delay had run, a run of clicks (a page's "click fast" game the
  // window opened under) landed on Approve.
  it("restarts on a press that follows another within REPEATED_PRESS_MS, not on one after a pause", () => {
    const gate = new ActivationGate(750);
    gate.present(true, 0);
    gate.pressed(1000, undefined);
    expect(gate.counts(1000)).toBe(true);
    gate.pressed(1000 + REPEATED_PRESS_MS - 1, 1000);
    expect(gate.counts(1600)).toBe(false);
    gate.pressed(3000, 1000 + REPEATED_PRESS_MS - 1);
    expect(gate.counts(3000)).toBe(true);
  });

  it("does not arm on a restart while the window is not in front", () => {
    const gate = new ActivationGate(750);
    gate.restart(0);
    expect(gate.counts(10_000)).toBe(false);
  });
});

describe("useActivationDelay", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
  const enter = (init: KeyboardEventInit = {}) =>
    new KeyboardEvent("keydown", { key: "Enter", ...init });

  it("arms after the delay and counts only keys pressed from then on", () => {
    const { result } = renderHook(() => useActivationDelay("a"));
    const early = enter();
    expect(result.current.armed).toBe(false);
    wait(ACTIVATION_DELAY_MS - 1);
    expect(result.current.armed).toBe(false);
    expect(result.current.counts(enter())).toBe(false);
    wait(1);
    expect(result.current.armed).toBe(true);
    expect(result.current.counts(enter())).toBe(true);
    expect(result.current.counts(early)).toBe(false);
    expect(result.current.counts(enter({ repeat: true }))).toBe(false);
  });

  it("restarts when the request shown changes", () => {
    const { result, rerender } = renderHook(({ shown }) => useActivationDelay(shown), {
      initialProps: { shown: "a" },
    });
    wait(ACTIVATION_DELAY_MS);
    expect(result.current.armed).toBe(true);
    rerender({ shown: "b" });
    expect(result.current.armed).toBe(false);
    expect(result.current.counts(enter())).toBe(false);
    wait(ACTIVATION_DELAY_MS);
    expect(result.current.armed).toBe(true);
  });

  it("disarms on blur and restarts on focus", () => {
    const { result } = renderHook(() => useActivationDelay("a"));
    wait(ACTIVATION_DELAY_MS);
    act(() => {
      window.dispatchEvent(new FocusEvent("blur"));
    });
    expect(result.current.armed).toBe(false);
    wait(5000);
    expect(result.current.counts(enter())).toBe(false);
    act(() => {
      window.dispatchEvent(new FocusEvent("focus"));
    });
    wait(ACTIVATION_DELAY_MS - 1);
    expect(result.current.armed).toBe(false);
    wait(1);
    expect(result.current.armed).toBe(true);
  });

  it("ignores focus moving between the page's own elements", () => {
    const { result } = renderHook(() => useActivationDelay("a"));
    wait(ACTIVATION_DELAY_MS);
    act(() => {
      document.body.dispatchEvent(new FocusEvent("blur", { bubbles: true }));
    });
    expect(result.current.armed).toBe(true);
  });

  it("does not arm while the window is hidden, and restarts once it shows", () => {
    const visibility = vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    const { result } = renderHook(() => useActivationDelay("a"));
    wait(5000);
    expect(result.current.armed).toBe(false);
    visibility.mockReturnValue("visible");
    act(() => {
      document.dispatchEvent(new Event("visibilitychange"));
    });
    wait(ACTIVATION_DELAY_MS);
    expect(result.current.armed).toBe(true);
  });

  it("disarms on a run of presses and arms once they stop for the delay", () => {
    const { result } = renderHook(() => useActivationDelay("a"));
    wait(ACTIVATION_DELAY_MS);
    expect(result.current.armed).toBe(true);
    const press = () =>
      act(() => {
        window.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
      });
    press();
    expect(result.current.armed).toBe(true);
    for (let i = 0; i < 10; i++) {
      wait(100);
      press();
      expect(result.current.armed).toBe(false);
    }
    wait(ACTIVATION_DELAY_MS);
    expect(result.current.armed).toBe(true);
  });

  it("does not arm while the window has no focus, until it gets it", () => {
    vi.spyOn(document, "hasFocus").mockReturnValue(false);
    const { result } = renderHook(() => useActivationDelay("a"));
    wait(5000);
    expect(result.current.armed).toBe(false);
    act(() => {
      window.dispatchEvent(new FocusEvent("focus"));
    });
    wait(ACTIVATION_DELAY_MS);
    expect(result.current.armed).toBe(true);
  });

  it("counts a pointer click from its press, a keyboard click from itself", () => {
    const { result } = renderHook(() => useActivationDelay("a"));
    wait(ACTIVATION_DELAY_MS - 100);
    act(() => {
      window.dispatchEvent(new PointerEvent("pointerdown"));
    });
    wait(200);
    expect(result.current.armed).toBe(true);
    // Pressed before Approve armed, released after: not a deliberate click.
    expect(result.current.counts(new MouseEvent("click", { detail: 1 }))).toBe(false);
    expect(result.current.counts(new MouseEvent("click", { detail: 0 }))).toBe(true);
    // A press of its own (not the run of the first: that would restart the delay).
    wait(REPEATED_PRESS_MS);
    act(() => {
      window.dispatchEvent(new PointerEvent("pointerdown"));
    });
    expect(result.current.counts(new MouseEvent("click", { detail: 1 }))).toBe(true);
  });
});
