import { useEffect, useRef } from "react";
import { type StoreApi, useStore } from "zustand";
import type { DecideParams } from "@/lib/messages";
import type { ApprovalStore } from "@/lib/ui/approval-store";
import { t } from "@/lib/ui/i18n";
import { ErrorNote } from "../shared/controls";
import { Shell } from "../shared/Shell";
import { ConfirmApproval } from "./ConfirmApproval";

/** The confirmation window: the queue of approvals in `store` (kept current by followApprovals), one at a time. */
export function ConfirmView({
  store,
  closeWhenDone = () => window.close(),
}: {
  store: StoreApi<ApprovalStore>;
  closeWhenDone?: () => void;
}) {
  const { approvals, index, loaded, busy, error } = useStore(store);

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
