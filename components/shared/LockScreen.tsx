import { type FormEvent, useRef, useState } from "react";
import { useFieldAfterFailure } from "@/lib/ui/field-after-failure";
import { t } from "@/lib/ui/i18n";
import { Button, ErrorNote, Field } from "./controls";

/** Asks for the password to unlock the wallet. */
export function LockScreen({
  address,
  busy,
  error,
  onUnlock,
}: {
  address?: string;
  busy: boolean;
  error?: string;
  onUnlock(password: string): void;
}) {
  const [password, setPassword] = useState("");
  const field = useRef<HTMLInputElement>(null);
  useFieldAfterFailure(field, busy, error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password) onUnlock(password);
  };
  return (
    <form onSubmit={submit} className="mx-auto flex w-full max-w-lg flex-col gap-3">
      <p>{t("lock.locked")}</p>
      {address && <p className="font-mono text-xs break-all">{address}</p>}
      <Field
        ref={field}
        label={t("onboarding.password")}
        type="password"
        autoComplete="current-password"
        autoFocus
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <ErrorNote>{error}</ErrorNote>
      <Button type="submit" variant="primary" disabled={busy || !password}>
        {t("lock.unlock")}
      </Button>
    </form>
  );
}
