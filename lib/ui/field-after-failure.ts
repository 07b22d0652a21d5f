import { type RefObject, useEffect } from "react";

/**
 * A form whose attempt failed (a wrong password, a key that is no key) puts
 * the focus back in `field`, its text selected to type again: the submit
 * button it was sent from was disabled while busy, and the focus fell to the
 * page's start with it.
 */
export function useFieldAfterFailure(
  field: RefObject<HTMLInputElement | null>,
  busy: boolean,
  error: string | undefined,
): void {
  useEffect(() => {
    if (busy || !error || !field.current) return;
    field.current.focus();
    field.current.select();
  }, [field, busy, error]);
}
