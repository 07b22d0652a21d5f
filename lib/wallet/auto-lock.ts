import { WalletError } from "./errors";

/** The longest idle time the person may choose: a week. */
export const MAX_AUTO_LOCK_MINUTES = 7 * 24 * 60;

/** Refuses an auto-lock delay that is not a whole number of minutes the wallet allows. */
export function invalidAutoLock(minutes: number): WalletError {
  return new WalletError(
    "invalid-auto-lock",
    `auto-lock minutes must be a whole number from 1 to ${MAX_AUTO_LOCK_MINUTES} (a week), got ${minutes}`,
  );
}

/** When an idle wallet locks itself: `autoLockMinutes` after the last activity (ms epoch). */
export function autoLockAt(lastActivityAt: number, autoLockMinutes: number): number {
  if (!Number.isSafeInteger(autoLockMinutes) || autoLockMinutes <= 0) {
    throw invalidAutoLock(autoLockMinutes);
  }
  return lastActivityAt + autoLockMinutes * 60_000;
}

/** True once the idle time has reached the limit (the lock instant itself counts as idle). */
export function shouldAutoLock(
  now: number,
  lastActivityAt: number,
  autoLockMinutes: number,
): boolean {
  return now >= autoLockAt(lastActivityAt, autoLockMinutes);
}
