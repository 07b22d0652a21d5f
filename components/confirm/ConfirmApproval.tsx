import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { errorText } from "@/lib/errors";
import type { DecideParams, PendingApproval } from "@/lib/messages";
import { parseAtomicAmount } from "@/lib/protocol/rails/amount";
import { useActivationDelay } from "@/lib/ui/activation-delay";
import { isolated } from "@/lib/ui/bidi";
import { useFieldAfterFailure } from "@/lib/ui/field-after-failure";
import { t } from "@/lib/ui/i18n";
import { localeAmount } from "@/lib/ui/locale-amount";
import { inputToMicro, microToInput, showMicro, showStatedDecimal } from "@/lib/ui/money";
import { callerWords, isDesktopApp } from "@/lib/ui/payment-words";
import { minutesAndSeconds, roundedPeriod, usePriceValidity } from "@/lib/ui/price-expiry";
import { isStrayTyping } from "@/lib/ui/stray-typing";
import { toMicro } from "@/lib/wallet/micro";
import { Clipped, DESCRIPTION_SHOWN, NAME_SHOWN } from "../shared/Clipped";
import { Button, ErrorNote, Field, INPUT_CLASS, Sentence } from "../shared/controls";
import { AmountView } from "./AmountView";
import { Cut, ToolArguments } from "./ToolArguments";
import { Warnings } from "./Warnings";

export interface ConfirmApprovalProps {
  approval: PendingApproval;
  /** 1-based place of this approval in the queue, and the queue's length. */
  position: number;
  count: number;
  busy: boolean;
  error?: string;
  onUnlock(password: string): void;
  onDecide(decision: DecideParams["decision"], alwaysAllowPerDay?: string): void;
  onSelect(position: number): void;
}

/**
 * Keys on these keep their own meaning: Enter on "Decline" must not approve,
 * nor Enter on "Show the whole description" (a summary) meant to read more.
 */
const OWN_ENTER = "button, a, select, textarea, summary, [role=button], [role=link]";

/** How long before its price runs out a request says so (the window closes when it does). */
const EXPIRY_WARNING_SECONDS = 30;

/** Fields a person types in: Escape there is theirs. */
const EDITABLE = "input, textarea, select, [contenteditable]";

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] gap-2 py-1">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{term}</dt>
      <dd className="min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}

/** What is paid for; `byApp`: a desktop app asks, and what it describes is its word, not a site's. */
function Resource({ resource, byApp }: { resource: PendingApproval["resource"]; byApp: boolean }) {
  if (resource.kind === "http") {
    const { call } = resource;
    return (
      <div data-testid="resource">
        <div className="font-mono text-xs">
          {resource.method}{" "}
          <Clipped text={resource.url} shown={NAME_SHOWN} more={t("confirm.fullAddress")} />
        </div>
        {call && (
          <>
            <p className="mt-1 text-sm" data-testid="described-tool">
              <Sentence
                text={t(byApp ? "confirm.describedToolByApp" : "confirm.describedTool", ["$1"])}
                parts={[
                  <span key="tool" className="font-mono">
                    <Clipped text={call.tool} shown={NAME_SHOWN} more={t("confirm.fullName")} />
                  </span>,
                ]}
              />
            </p>
            {call.arguments ? (
              <ToolArguments args={call.arguments} />
            ) : (
              <p className="mt-1 text-xs" data-testid="arguments">
                {t("confirm.argumentsNotPassed")}
              </p>
            )}
          </>
        )}
      </div>
    );
  }
  return (
    <div data-testid="resource">
      <Sentence
        text={t("confirm.mcpTool", ["$1", "$2"])}
        parts={[
          <span key="tool" className="font-mono">
            <Clipped text={resource.tool} shown={NAME_SHOWN} more={t("confirm.fullName")} />
          </span>,
          <span key="server" className="font-mono text-xs">
            <Clipped text={resource.server} shown={NAME_SHOWN} more={t("confirm.fullAddress")} />
          </span>,
        ]}
      />
      {resource.unsigned && (
        <p className="mt-1 text-xs" data-testid="unsigned-tool">
          {t(byApp ? "confirm.unsignedToolByApp" : "confirm.unsignedTool")}
        </p>
      )}
      {resource.arguments && <ToolArguments args={resource.arguments} />}
      {resource.argumentsUnknown && (
        <p className="mt-1 text-xs" data-testid="arguments">
          {t("confirm.argumentsUnknown")}
        </p>
      )}
    </div>
  );
}

/** The page a frame is in: its origin, or what a page with none is ("null", RFC 6454). */
function topPage(topOrigin: string): string {
  return topOrigin === "null" ? t("confirm.opaqueTop") : topOrigin;
}

/** The trusted confirmation of one payment: who asks, who is paid, for what, how much, what remains. */
export function ConfirmApproval(props: ConfirmApprovalProps) {
  const { approval, position, count, busy } = props;
  const currency = approval.currency;
  const oneCall = microToInput(
    toMicro(
      parseAtomicAmount(approval.amount.atomic, "amount"),
      approval.amount.decimals,
    ).toString(),
  );
  const [password, setPassword] = useState("");
  const passwordField = useRef<HTMLInputElement>(null);
  useFieldAfterFailure(passwordField, busy, approval.needsUnlock ? props.error : undefined);
  const [alwaysAllow, setAlwaysAllow] = useState(false);
  const [perDay, setPerDay] = useState(oneCall);
  const [inputError, setInputError] = useState<string>();
  // Unlocking reveals Approve: for the delay that is a new request on screen.
  const shown = `${approval.id}:${approval.needsUnlock}`;
  const activation = useActivationDelay(shown);
  // The request on screen when typing meant for another window reached this one: Enter then approves nothing.
  const [typedOn, setTypedOn] = useState<string>();
  const typedHere = typedOn === shown;
  const hintId = useId();
  const validity = usePriceValidity(approval.expiresAt);
  const collection = roundedPeriod(approval.collectableForSeconds);
  const expired = validity?.expired === true;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Nothing pre-focuses Approve; the heading takes focus so a screen reader announces the request.
    if (!approval.needsUnlock) heading.current?.focus();
  }, [approval.needsUnlock]);
  const approveButton = useRef<HTMLButtonElement>(null);
  // Whether Approve was the last element focused: the delay disables it each time the window
  // comes back to front, and a disabled button drops the focus to the page.
  const approveFocused = useRef(false);
  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      approveFocused.current = event.target === approveButton.current;
    };
    document.addEventListener("focusin", onFocusIn);
    return () => document.removeEventListener("focusin", onFocusIn);
  }, []);
  useEffect(() => {
    // Armed again: Approve takes back the focus it lost, unless the person moved it since.
    const dropped = document.activeElement === null || document.activeElement === document.body;
    if (activation.armed && approveFocused.current && dropped) approveButton.current?.focus();
  }, [activation.armed]);

  /** `event` is the keydown or click that asks to approve: it counts only once armed. */
  const approve = (event: Event) => {
    if (busy || expired || approval.needsUnlock || !activation.counts(event)) return;
    if (!alwaysAllow) return props.onDecide("approve");
    try {
      props.onDecide("approve", inputToMicro(perDay, t("confirm.dailyAmount")));
    } catch (error) {
      setInputError(errorText(error));
    }
  };
  const decline = () => {
    if (!busy) props.onDecide("decline");
  };
  const typed = () => setTypedOn(shown);
  const keys = useRef({ approve, decline, typed, typedHere });
  keys.current = { approve, decline, typed, typedHere };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isStrayTyping(event)) {
        keys.current.typed();
      } else if (event.key === "Escape") {
        // In a field, Escape is the field's (a password half typed, an amount): it declines nothing.
        if ((event.target as HTMLElement | null)?.closest(EDITABLE)) return;
        event.preventDefault();
        keys.current.decline();
      } else if (event.key === "Enter" && !event.isComposing) {
        if (event.repeat) {
          // A held Enter must not click whatever button it lands on, Approve included.
          event.preventDefault();
          return;
        }
        const target = event.target as HTMLElement | null;
        if (target?.closest(OWN_ENTER)) return;
        // While locked, Enter submits the unlock form instead.
        if (target?.closest("form[data-unlock]")) return;
        event.preventDefault();
        // After text typed for the page this window covered, Enter ends that text: a click or Tab decides.
        if (!keys.current.typedHere) keys.current.approve(event);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const submitUnlock = (event: FormEvent) => {
    event.preventDefault();
    if (password) props.onUnlock(password);
  };

  return (
    <article aria-labelledby="approval-title" className="flex flex-col gap-3">
      <div className="flex items-center justify-between">
        <h2 id="approval-title" ref={heading} tabIndex={-1} className="font-semibold outline-none">
          {approval.kind === "elicitation" ? t("confirm.elicitation") : t("confirm.request")}
        </h2>
        {count > 1 && (
          <nav aria-label={t("confirm.pending")} className="flex items-center gap-2 text-sm">
            <Button disabled={position <= 1} onClick={() => props.onSelect(position - 1)}>
              {t("confirm.previous")}
            </Button>
            <span data-testid="queue-position">
              {t("confirm.position", [String(position), String(count)])}
            </span>
            <Button disabled={position >= count} onClick={() => props.onSelect(position + 1)}>
              {t("confirm.next")}
            </Button>
          </nav>
        )}
      </div>
      {validity && !validity.expired && validity.secondsLeft <= EXPIRY_WARNING_SECONDS && (
        // Said once as it appears: the countdown itself is not read out every second.
        <p
          role="status"
          className="text-sm font-medium text-amber-800 dark:text-amber-300"
          data-testid="expiring"
        >
          {t("confirm.expiring", [String(EXPIRY_WARNING_SECONDS)])}
        </p>
      )}
      <Warnings warnings={approval.warnings} />
      <dl className="divide-y divide-slate-200 dark:divide-slate-800">
        <Row term={t("confirm.requestedBy")}>
          <span className="font-mono" data-testid="origin">
            {callerWords(approval.origin)}
          </span>
          {approval.topOrigin && (
            <p className="text-xs" data-testid="top-origin">
              {approval.topOrigin === "null" ? (
                t("confirm.inOpaqueFrame")
              ) : (
                <>
                  {t("confirm.inFrame")} <bdi className="font-mono">{approval.topOrigin}</bdi>
                </>
              )}
            </p>
          )}
        </Row>
        <Row term={t("confirm.paidTo")}>
          <span data-testid="receiver">
            {/* Who is paid is its id; the name is the receiver's own word, read after it. */}
            <span className="font-mono text-xs">{approval.receiver.id}</span>{" "}
            {/* Verified only when a registry the person trusts lists it (envelope.md section 4). */}
            {approval.receiver.verified && approval.receiver.registry ? (
              <span className="rounded bg-emerald-100 px-1 text-xs text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100">
                {t("confirm.verifiedBy", [approval.receiver.registry])}
              </span>
            ) : approval.receiver.verified ? (
              <span className="rounded bg-slate-200 px-1 text-xs text-slate-900 dark:bg-slate-700 dark:text-slate-100">
                {t("confirm.signedPrice")}
              </span>
            ) : (
              <span className="rounded bg-amber-200 px-1 text-xs font-semibold text-amber-950">
                {t("confirm.unverified")}
              </span>
            )}
            {approval.receiver.name && (
              <span className="block text-xs" data-testid="receiver-name">
                {t("confirm.callsItself")}{" "}
                <Clipped
                  text={approval.receiver.name}
                  shown={NAME_SHOWN}
                  more={t("confirm.fullName")}
                />
              </span>
            )}
            {approval.receiver.claimedBy && (
              <span className="block text-xs" data-testid="claimed-by">
                {t("confirm.claimedBy", [approval.receiver.claimedBy])}
              </span>
            )}
          </span>
        </Row>
        <Row term={t("confirm.payTo")}>
          <span className="font-mono text-xs" data-testid="pay-to">
            {approval.payTo}
          </span>
        </Row>
        <Row term={t("confirm.for")}>
          <div className="break-words">
            <Clipped
              text={approval.description}
              shown={DESCRIPTION_SHOWN}
              more={t("confirm.fullDescription")}
              testId="description"
            />
            <Cut omitted={approval.descriptionOmitted ?? 0} />
            {approval.description && (
              <p className="text-xs italic" data-testid="description-source">
                {t("confirm.descriptionSource")}
              </p>
            )}
          </div>
          <Resource resource={approval.resource} byApp={isDesktopApp(approval.origin)} />
          {approval.declaredPayments && (
            <p className="text-xs" data-testid="declared-payments">
              {t("confirm.declared", [
                approval.declaredPayments.version
                  ? t("confirm.declaredVersion", [isolated(approval.declaredPayments.version)])
                  : "",
              ])}
            </p>
          )}
        </Row>
        <Row term={t("confirm.amount")}>
          <AmountView amount={approval.amount} />
          {approval.total && (
            <p className="text-xs">
              {t("confirm.total", [
                showStatedDecimal(approval.total.amount),
                isolated(approval.total.currency),
              ])}
            </p>
          )}
          {approval.priceHint && (
            <p className="text-xs" data-testid="price-hint">
              {t("confirm.priceHint", [
                // The server's words, each isolated: a bidi control in them must not turn the sentence.
                approval.priceHint.model
                  ? `${isolated(approval.priceHint.estimate)} (${isolated(approval.priceHint.model.replaceAll("_", " "))})`
                  : isolated(approval.priceHint.estimate),
              ])}
            </p>
          )}
        </Row>
        {approval.defaults && (
          <Row term={t("confirm.filledIn")}>
            <details>
              <summary className="cursor-pointer text-xs">
                {t("confirm.defaults", approval.defaults.length)}
              </summary>
              <ul className="text-xs" data-testid="defaults">
                {approval.defaults.map((d) => (
                  <li key={d.field}>
                    <span className="font-mono">{d.field}</span>: {d.value}
                  </li>
                ))}
              </ul>
            </details>
          </Row>
        )}
        {approval.balance && (
          <Row term={t("confirm.yourBalance")}>
            <span data-testid="balance">
              {BigInt(approval.balance.after) < 0n ? (
                // Short of it: no negative amounts (signed payments may exceed what the chain holds).
                t("confirm.balanceShort", [
                  t("confirm.balanceAmount", [
                    localeAmount(maxZero(approval.balance.available), approval.amount.decimals),
                    approval.amount.symbol,
                  ]),
                ])
              ) : (
                <Sentence
                  text={t("confirm.balanceAfter", ["$1", "$2"])}
                  parts={[
                    t("confirm.balanceAmount", [
                      localeAmount(BigInt(approval.balance.available), approval.amount.decimals),
                      approval.amount.symbol,
                    ]),
                    <strong key="after">
                      {t("confirm.balanceAmount", [
                        localeAmount(BigInt(approval.balance.after), approval.amount.decimals),
                        approval.amount.symbol,
                      ])}
                    </strong>,
                  ]}
                />
              )}
            </span>
          </Row>
        )}
        {validity && (
          <Row term={t("confirm.validFor")}>
            <span data-testid="valid-for">
              {validity.expired
                ? t("confirm.validNoMore")
                : minutesAndSeconds(validity.secondsLeft)}
            </span>
          </Row>
        )}
        <Row term={t("confirm.collectable")}>
          <span data-testid="collectable-for">
            {t(`confirm.collectableFor.${collection.unit}`, collection.count, [
              String(collection.count),
            ])}
          </span>
        </Row>
        <Row term={t("confirm.remainingAfter")}>
          <ul data-testid="remaining">
            {approval.remaining.map((limit) => (
              <li key={`${limit.scope} ${limit.period} ${limit.currency}`}>
                {t(`confirm.limitLeft.${limit.scope}.${limit.period}`)}:{" "}
                <strong>{showMicro(limit.micro, limit.currency)}</strong>
              </li>
            ))}
          </ul>
        </Row>
      </dl>
      <ErrorNote>{props.error}</ErrorNote>
      {expired && (
        <p
          role="alert"
          className="rounded bg-amber-100 p-2 text-sm text-amber-950"
          data-testid="expired"
        >
          {t("confirm.expired")}
        </p>
      )}
      {approval.needsUnlock && approval.paidOnUnlock && (
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="paid-on-unlock">
          {t("confirm.paidOnUnlock")}
        </p>
      )}
      {approval.needsUnlock ? (
        <form data-unlock onSubmit={submitUnlock} className="flex items-end gap-2">
          <Field
            ref={passwordField}
            label={t("confirm.password")}
            type="password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className="flex-1"
          />
          <Button type="submit" variant="primary" disabled={busy || !password}>
            {t("confirm.unlock")}
          </Button>
          <Button onClick={decline} disabled={busy}>
            {t("confirm.decline")}
          </Button>
        </form>
      ) : (
        // Kept in view: the details above can be taller than the window.
        <div className="sticky bottom-0 flex flex-col gap-3 border-t border-slate-200 bg-white py-2 dark:border-slate-800 dark:bg-slate-950">
          {approval.approvesPayee && (
            <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="approves-payee">
              {t("confirm.approvesPayee")}
            </p>
          )}
          {approval.alwaysAllowBlocked ? (
            <p className="text-xs text-slate-600 dark:text-slate-400">
              {approval.alwaysAllowBlocked}
            </p>
          ) : approval.warnings.includes("waited-unshown") ? (
            <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="unshown-budget">
              {t("confirm.waitedNoBudget")}
            </p>
          ) : approval.topOrigin ? (
            // The page around the site can drive it: the wallet never pays automatically there.
            <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="framed-budget">
              {approval.topOrigin === approval.origin
                ? t("confirm.frameAsks", [callerWords(approval.origin)])
                : t("confirm.framedAsks", [
                    topPage(approval.topOrigin),
                    callerWords(approval.origin),
                  ])}
            </p>
          ) : (
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <input
                id="always-allow"
                type="checkbox"
                checked={alwaysAllow}
                onChange={(e) => setAlwaysAllow(e.target.checked)}
                className="h-4 w-4 focus-visible:outline-2 focus-visible:outline-emerald-600"
              />
              <label htmlFor="always-allow">{t("confirm.alwaysAllow")}</label>
              <input
                aria-label={t("confirm.dailyAmount")}
                inputMode="decimal"
                className={`w-24 ${INPUT_CLASS}`}
                value={perDay}
                disabled={!alwaysAllow}
                onChange={(e) => {
                  setPerDay(e.target.value);
                  setInputError(undefined);
                }}
              />
              <span>{t("confirm.perDaySite", [currency])}</span>
            </div>
          )}
          <ErrorNote>{inputError}</ErrorNote>
          <div className="flex gap-2">
            <Button
              ref={approveButton}
              variant="primary"
              disabled={busy || expired || !activation.armed}
              aria-describedby={activation.armed ? undefined : hintId}
              onClick={(event) => approve(event.nativeEvent)}
            >
              {t("confirm.approve")}
            </Button>
            <Button disabled={busy} onClick={decline}>
              {t("confirm.decline")}
            </Button>
          </div>
          {/* Below the buttons, so the text changing never moves Approve. */}
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {activation.armed ? (
              <span data-testid="enter-hint">
                {typedHere ? t("confirm.typedHere") : t("confirm.enterApproves")}
              </span>
            ) : (
              <span id={hintId}>{t("confirm.approveSoon")}</span>
            )}{" "}
            {t("confirm.escDeclines")}
          </p>
        </div>
      )}
    </article>
  );
}

/** A balance as the window shows it: what signed payments already take can leave it below zero. */
function maxZero(atomic: string): bigint {
  const amount = BigInt(atomic);
  return amount < 0n ? 0n : amount;
}
