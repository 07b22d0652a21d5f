import { InvalidAutoLockError } from "./errors";

/** When an idle wallet locks itself: `autoLockMinutes` after the last activity (ms epoch). */
export function autoLockAt(lastActivityAt: number, autoLockMinutes: number): number {
  if (!Number.isSafeInteger(autoLockMinutes) || autoLockMinutes <= 0) {
    throw new InvalidAutoLockError(autoLockMinutes);
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
