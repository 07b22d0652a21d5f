import { useEffect, useRef, useState } from "react";
import { errorText } from "@/lib/errors";
import { callWallet } from "@/lib/ui/client";
import { t } from "@/lib/ui/i18n";
import { Button, CopyButton, ErrorNote, Field, StepHeading } from "./controls";

/**
 * The key shown once, behind a deliberate reveal, until the person says a
 * copy is saved. Without `password` (the popup's reminder) it asks for it.
 */
export function BackupStep({
  password,
  onSaved,
  onLater,
}: {
  password?: string;
  onSaved(): void;
  onLater?(): void;
}) {
  const [typed, setTyped] = useState("");
  const [key, setKey] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string>();
  const shownKey = useRef<HTMLOutputElement>(null);
  // The button that showed the key is gone: focus goes to the key, read out as it appears.
  useEffect(() => {
    if (key !== undefined) shownKey.current?.focus();
  }, [key]);
  const reveal = async () => {
    setError(undefined);
    try {
      const shown = await callWallet({
        method: "ui_exportKey",
        params: { password: password ?? typed },
      });
      setKey(shown.privateKey);
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section aria-labelledby="backup-h" className="flex flex-col gap-3">
      <StepHeading id="backup-h">{t("backup.title")}</StepHeading>
      <p className="text-sm">{t("backup.why")}</p>
      <p className="text-sm">{t("backup.how")}</p>
      {key === undefined ? (
        <>
          {password === undefined && (
            <Field
              label={t("backup.passwordToReveal")}
              type="password"
              autoComplete="current-password"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
            />
          )}
          <Button
            variant="primary"
            disabled={password === undefined && typed === ""}
            onClick={() => void reveal()}
          >
            {t("backup.reveal")}
          </Button>
        </>
      ) : (
        <>
          <p className="text-sm font-medium" id="backup-key-label">
            {t("backup.keyLabel")}
          </p>
          <output
            ref={shownKey}
            tabIndex={-1}
            aria-labelledby="backup-key-label"
            data-testid="backup-key"
            className="rounded border border-amber-400 bg-amber-50 p-2 font-mono text-xs break-all dark:border-amber-600 dark:bg-amber-950"
          >
            {key}
          </output>
          <CopyButton text={key} label={t("backup.copyKey")} />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
            {t("backup.saved")}
          </label>
          <Button variant="primary" disabled={!saved} onClick={onSaved}>
            {t("backup.confirm")}
          </Button>
        </>
      )}
      <ErrorNote>{error}</ErrorNote>
      {onLater && <Button onClick={onLater}>{t("backup.later")}</Button>}
    </section>
  );
}
