import { useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import type { DecideParams } from "@/lib/messages";
import { createApprovalStore } from "@/lib/ui/approval-store";
import { t } from "@/lib/ui/i18n";
import { watchPending } from "@/lib/ui/pending-watch";
import { ErrorNote } from "../shared/controls";
import { Shell } from "../shared/Shell";
import { ConfirmApproval } from "./ConfirmApproval";

/** The confirmation window: the queue of approvals, one at a time. */
export function ConfirmView({
  closeWhenDone = () => window.close(),
}: {
  closeWhenDone?: () => void;
}) {
  const [store] = useState(createApprovalStore);
  const { approvals, index, loaded, busy, error } = useStore(store);
  useEffect(() => {
    const refresh = () => void store.getState().refresh();
    // Watching first: a change between the first read and the watch would be missed.
    const stop = watchPending(refresh);
    refresh();
    return stop;
  }, [store]);

  // The window goes once nothing is left to decide: the person decided the last request, or its
  // page withdrew it. Not when it opened on an empty queue: there was never anything to do.
  const waiting = approvals.length;
  const hadWaiting = useRef(false);
  const close = useRef(closeWhenDone);
  close.current = closeWhenDone;
  useEffect(() => {
    if (loaded && waiting === 0 && hadWaiting.current) close.current();
    hadWaiting.current = waiting > 0;
  }, [loaded, waiting]);

  const decide = (decision: DecideParams["decision"], alwaysAllowPerDay?: string) =>
    store.getState().decide(decision, alwaysAllowPerDay);

  const approval = approvals[index];
  return (
    <Shell title={t("confirm.title")}>
      {approval ? (
        <ConfirmApproval
          key={approval.id}
          approval={approval}
          position={index + 1}
          count={approvals.length}
          busy={busy}
          error={error}
          onUnlock={(password) => void store.getState().unlock(password)}
          onDecide={(d, perDay) => void decide(d, perDay)}
          onSelect={(position) => store.getState().select(position - 1)}
        />
      ) : (
        <>
          <ErrorNote>{error}</ErrorNote>
          <p aria-busy={!loaded}>{loaded ? t("confirm.none") : t("confirm.loading")}</p>
        </>
      )}
    </Shell>
  );
}
