import type { ReactNode } from "react";
import type { PaymentDetail } from "@/lib/messages";
import { isolated } from "@/lib/ui/bidi";
import { t } from "@/lib/ui/i18n";
import { formatDateTimeLong } from "@/lib/ui/locale-format";
import { showAmount } from "@/lib/ui/money";
import { callerWords, isDesktopApp } from "@/lib/ui/payment-words";
import { Button, FOCUS, LINK_CLASS, StepHeading } from "../shared/controls";
import { StateBadge } from "../shared/StateBadge";

const KIND: Record<PaymentDetail["objects"][number]["kind"], () => string> = {
  quote: () => t("detail.kind.quote"),
  confirmation: () => t("detail.kind.confirmation"),
  proof: () => t("detail.kind.proof"),
  receipt: () => t("detail.kind.receipt"),
  "x402-payment": () => t("detail.kind.x402Payment"),
  "x402-settlement": () => t("detail.kind.x402Settlement"),
};

/** What the chain said about the settlement, in words. */
function settlementInWords(detail: PaymentDetail): string {
  const check = detail.settlementCheck;
  if (!check) return t("detail.check.none");
  switch (check.status) {
    case "confirmed":
      return t("detail.check.confirmed", [
        check.blockNumber ? t("detail.check.inBlock", [check.blockNumber]) : "",
      ]);
    case "used":
      return t("detail.check.used");
    case "unconfirmed":
      return t("detail.check.unconfirmed", [check.problem ?? ""]).trim();
    case "mismatch":
      return t("detail.check.mismatch", [check.problem ?? ""]).trim();
  }
}

function Part({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`detail-${id}`} className="flex flex-col gap-1">
      <h3 id={`detail-${id}`} className="text-sm font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

const GRID = "grid grid-cols-[9rem_1fr] gap-1 text-sm";

/** One payment in five parts: what, who, money, the signed objects, and the chain. */
export function PaymentDetailView({ detail, onClose }: { detail: PaymentDetail; onClose(): void }) {
  const createdIso = new Date(detail.createdAt).toISOString();
  return (
    <section aria-labelledby="detail-heading" className="flex flex-col gap-3">
      <div className="flex items-center justify-between">
        <StepHeading id="detail-heading">{t("detail.title", [detail.id])}</StepHeading>
        <Button onClick={onClose}>{t("detail.back")}</Button>
      </div>
      <Part id="what" title={t("detail.what")}>
        <dl className={GRID}>
          <dt>{t("detail.for")}</dt>
          <dd className="break-all">
            {detail.resource.kind === "http"
              ? t("detail.httpFor", [detail.resource.method, isolated(detail.resource.url)])
              : t("detail.mcpFor", [
                  isolated(detail.resource.tool),
                  isolated(detail.resource.server),
                ])}
          </dd>
          {detail.resource.kind === "http" && detail.resource.call && (
            <>
              <dt>{t("detail.tool")}</dt>
              <dd className="break-all" data-testid="described-tool">
                {t(
                  isDesktopApp(detail.origin)
                    ? "detail.describedToolByApp"
                    : "detail.describedTool",
                  [isolated(detail.resource.call.tool)],
                )}
              </dd>
            </>
          )}
          <dt>{t("detail.state")}</dt>
          <dd>
            <StateBadge state={detail.state} reason={detail.reason} reasonBeside />
            {detail.reason ? ` ${detail.reason}` : ""}
          </dd>
          <dt>{t("detail.time")}</dt>
          <dd>
            <time dateTime={createdIso}>{formatDateTimeLong(detail.createdAt)}</time>
            <span className="block font-mono text-xs" data-testid="time-utc">
              {t("detail.timeUtc", [createdIso])}
            </span>
          </dd>
        </dl>
        {detail.offerTrimmed && (
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="offer-trimmed">
            {t("detail.offerTrimmed")}
          </p>
        )}
      </Part>
      <Part id="who" title={t("detail.who")}>
        <dl className={GRID}>
          <dt>{t("detail.site")}</dt>
          <dd className="font-mono break-all">{callerWords(detail.origin)}</dd>
          <dt>{t("detail.receiver")}</dt>
          <dd className="font-mono break-all">{detail.receiver}</dd>
          <dt>{t("detail.payTo")}</dt>
          <dd className="font-mono break-all">{detail.payTo}</dd>
          {detail.receiverSaid && (
            <>
              <dt>{t("detail.receiverSaid")}</dt>
              <dd className="font-mono break-all" data-testid="receiver-said">
                <bdi>{detail.receiverSaid}</bdi>
              </dd>
            </>
          )}
        </dl>
      </Part>
      <Part id="money" title={t("detail.money")}>
        <dl className={GRID}>
          <dt>{t("detail.amount")}</dt>
          <dd>
            {t("detail.amountExact", [
              showAmount(detail.amount),
              detail.amount.networkName,
              detail.amount.atomic,
              String(detail.amount.decimals),
            ])}
          </dd>
        </dl>
      </Part>
      <Part id="proofs" title={t("detail.proofs")}>
        <ul aria-label={t("detail.signedObjects")} className="flex flex-col gap-2">
          {detail.objects.map((object) => (
            <li
              key={`${object.kind} ${object.compact ?? JSON.stringify(object.claims)}`}
              className="rounded border border-slate-200 p-2 dark:border-slate-800"
            >
              <p className="font-medium">
                {KIND[object.kind]()}:{" "}
                {object.unsigned ? (
                  <span>{t("detail.unsigned")}</span>
                ) : object.keyNoLongerListed ? (
                  <span data-testid="key-no-longer-listed">{t("detail.keyNoLongerListed")}</span>
                ) : object.verified ? (
                  <span className="text-emerald-700 dark:text-emerald-400">
                    {t("detail.verifies")}
                  </span>
                ) : (
                  <span className="font-semibold text-red-700 dark:text-red-400">
                    {t("detail.notVerifies")}
                    {object.problem ? ` (${object.problem})` : ""}
                  </span>
                )}
              </p>
              <details>
                <summary className={`${FOCUS} cursor-pointer text-sm`}>
                  {t("detail.decoded")}
                </summary>
                <pre className="overflow-auto text-xs">
                  {JSON.stringify({ header: object.header, claims: object.claims }, null, 2)}
                </pre>
                {object.compact && <p className="font-mono text-xs break-all">{object.compact}</p>}
              </details>
            </li>
          ))}
        </ul>
      </Part>
      <Part id="chain" title={t("detail.chain")}>
        <dl className={GRID}>
          <dt>{t("detail.settlement")}</dt>
          <dd data-testid="settlement-check">{settlementInWords(detail)}</dd>
          <dt>{t("detail.settlementTx")}</dt>
          <dd className="font-mono break-all" data-testid="settlement">
            {detail.settlementTransaction ?? t("detail.noneYet")}
            {detail.explorerUrl && (
              <>
                {" "}
                <a
                  className={LINK_CLASS}
                  href={detail.explorerUrl}
                  target="_blank"
                  rel="noreferrer"
                >
                  {t("detail.explorer")}
                </a>
              </>
            )}
          </dd>
        </dl>
      </Part>
    </section>
  );
}
