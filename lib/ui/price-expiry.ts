import { useEffect, useState } from "react";

/** What is left of a price's validity, as the confirmation window shows it. */
export interface PriceValidity {
  /** Whole seconds left, 0 once expired. */
  secondsLeft: number;
  expired: boolean;
}

/** The validity left at `now` of a price that expires at `expiresAt` (both epoch ms). */
export function priceValidity(expiresAt: number, now: number): PriceValidity {
  const secondsLeft = Math.max(0, Math.ceil((expiresAt - now) / 1000));
  return { secondsLeft, expired: secondsLeft === 0 };
}

/** "m:ss" of a number of seconds: 272 → "4:32". */
export function minutesAndSeconds(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** A length of time in the largest unit that reads well, rounded up (it is shown as "up to"). */
export interface RoundedPeriod {
  unit: "seconds" | "minutes" | "hours";
  count: number;
}

/** 90 → 90 seconds, 300 → 5 minutes, 3 601 → 61 minutes, 86 400 → 24 hours. */
export function roundedPeriod(seconds: number): RoundedPeriod {
  if (seconds < 120) return { unit: "seconds", count: seconds };
  if (seconds < 2 * 3600) return { unit: "minutes", count: Math.ceil(seconds / 60) };
  return { unit: "hours", count: Math.ceil(seconds / 3600) };
}

/**
 * The validity left of a price expiring at `expiresAt` (epoch ms), kept
 * current once a second until it expires; undefined for a price without an
 * expiry (an x402 price: its authorization's time starts when it is signed).
 */
export function usePriceValidity(expiresAt: number | undefined): PriceValidity | undefined {
  const [now, setNow] = useState(() => Date.now());
  const validity = expiresAt === undefined ? undefined : priceValidity(expiresAt, now);
  const ticking = validity !== undefined && !validity.expired;
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [ticking]);
  return validity;
}
