import { useEffect, useId, useRef, useState } from "react";
import { t } from "@/lib/ui/i18n";
import { Button } from "../shared/controls";

/**
 * "Delete history" and the question it asks first, as an alert dialog: the
 * question takes the focus on its safe answer (Cancel), Escape cancels, and
 * the focus goes back to "Delete history" once it is answered.
 */
export function DeleteHistory({
  onDelete,
}: {
  /** Deletes the history, calling `answered` once it has (a failure leaves the question open). */
  onDelete: (answered: () => void) => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  const questionId = useId();
  useEffect(() => {
    if (asking) cancel.current?.focus();
    else if (wasAsking.current) opener.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  return (
    <>
      <Button ref={opener} variant="danger" className="self-start" onClick={() => setAsking(true)}>
        {t("settings.history.delete")}
      </Button>
      {asking && (
        <div
          role="alertdialog"
          aria-label={t("settings.history.confirmLabel")}
          aria-describedby={questionId}
          className="flex flex-col gap-2"
          onKeyDown={(event) => {
            if (event.key !== "Escape") return;
            event.preventDefault();
            setAsking(false);
          }}
        >
          <p id={questionId}>{t("settings.history.confirm")}</p>
          <div className="flex gap-2">
            <Button variant="danger" onClick={() => void onDelete(() => setAsking(false))}>
              {t("settings.history.yes")}
            </Button>
            <Button ref={cancel} onClick={() => setAsking(false)}>
              {t("settings.history.cancel")}
            </Button>
          </div>
        </div>
      )}
    </>
  );
}
