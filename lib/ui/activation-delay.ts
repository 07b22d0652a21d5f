import { useLayoutEffect, useRef, useState } from "react";

/** Browsers hold a permission prompt's buttons for 500–1000 ms; the wallet holds Approve this long. */
export const ACTIVATION_DELAY_MS = 750;

/**
 * A press this soon after the previous one is part of a run of clicks (a
 * double-click, a page's "click fast" game the window opened under): it
 * restarts the delay, as Chromium's prompts treat repeated input.
 */
export const REPEATED_PRESS_MS = 500;

/**
 * When a click or key on Approve may count: only once the request on screen
 * has been in front of the person (window visible and focused) for `delayMs`
 * without a break, and without a run of clicks. A keystroke or click meant for
 * another window, or a second click of a double-click, thus lands on a request
 * nobody has seen yet and is ignored. Times are milliseconds on the page's monotonic clock
 * (`performance.now()`, which `Event.timeStamp` shares).
 */
export class ActivationGate {
  private inFront = false;
  /** When the current uninterrupted stretch in front began; undefined while not in front. */
  private since: number | undefined;

  constructor(private readonly delayMs = ACTIVATION_DELAY_MS) {}

  /** Whether the window is visible and focused: losing that disarms, regaining it restarts the delay. */
  present(inFront: boolean, now: number): void {
    if (inFront === this.inFront) return;
    this.inFront = inFront;
    this.since = inFront ? now : undefined;
  }

  /** A different request is shown: what was armed for the old one does not carry over. */
  restart(now: number): void {
    if (this.inFront) this.since = now;
  }

  /**
   * A pointer pressed at `at`; `previous` is when the one before it was. One of a run of
   * presses restarts the delay: clicking on and on never lands on an armed Approve.
   */
  pressed(at: number, previous: number | undefined): void {
    if (previous !== undefined && at - previous < REPEATED_PRESS_MS) this.restart(at);
  }

  /** Whether an activation whose gesture began at `at` counts: it began after the delay ran out. */
  counts(at: number): boolean {
    return this.since !== undefined && at - this.since >= this.delayMs;
  }

  /** Milliseconds from `now` until activations count; undefined while the window is not in front. */
  remaining(now: number): number | undefined {
    return this.since === undefined ? undefined : Math.max(0, this.since + this.delayMs - now);
  }
}

export interface ActivationDelay {
  /** Whether Approve may be activated now (for rendering it enabled). */
  armed: boolean;
  /**
   * Whether `event` (the keydown or click that activates Approve) counts. A
   * pointer click counts from its press, so a press begun before arming does
   * not count; an auto-repeated key never does.
   */
  counts(event: Event): boolean;
}

/**
 * Arms Approve ACTIVATION_DELAY_MS after `shown` (what identifies the
 * request on screen) appears with the window in front, restarting whenever
 * `shown` changes or the window is blurred or hidden.
 */
export function useActivationDelay(shown: string): ActivationDelay {
  const [gate] = useState(() => new ActivationGate());
  const [armedFor, setArmedFor] = useState<string>();
  const lastPress = useRef<number | undefined>(undefined);

  // A layout effect: the gate restarts before the browser can deliver another event.
  useLayoutEffect(() => {
    let focused = document.hasFocus();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      clearTimeout(timer);
      const now = performance.now();
      gate.present(focused && document.visibilityState === "visible", now);
      const left = gate.remaining(now);
      setArmedFor(left === 0 ? shown : undefined);
      if (left) timer = setTimeout(settle, left);
    };
    const onWindowFocus = (event: FocusEvent) => {
      // Only the window's own focus counts, not focus moving between the page's elements.
      if (event.target !== event.currentTarget) return;
      focused = event.type === "focus";
      settle();
    };
    const onPress = (event: PointerEvent) => {
      gate.pressed(event.timeStamp, lastPress.current);
      lastPress.current = event.timeStamp;
      settle();
    };
    gate.restart(performance.now());
    settle();
    window.addEventListener("focus", onWindowFocus);
    window.addEventListener("blur", onWindowFocus);
    window.addEventListener("pointerdown", onPress, true);
    document.addEventListener("visibilitychange", settle);
    return () => {
      clearTimeout(timer);
      window.removeEventListener("focus", onWindowFocus);
      window.removeEventListener("blur", onWindowFocus);
      window.removeEventListener("pointerdown", onPress, true);
      document.removeEventListener("visibilitychange", settle);
    };
  }, [gate, shown]);

  return {
    armed: armedFor === shown,
    counts(event) {
      if (event instanceof KeyboardEvent && event.repeat) return false;
      // A click from a pointer has a detail (its click count); one from the keyboard has none.
      const pressed =
        event instanceof MouseEvent && event.detail > 0 ? lastPress.current : undefined;
      return gate.counts(pressed ?? event.timeStamp);
    },
  };
}
