import type { PaymentDetail } from "@/lib/messages";
import { showAmount } from "@/lib/ui/money";
import { callerLabel } from "@/lib/wallet/budget-origin";
import { Button, LINK_CLASS } from "../shared/controls";

const KIND: Record<PaymentDetail["objects"][number]["kind"], string> = {
  quote: "Quote",
  confirmation: "Confirmation",
  proof: "Proof",
  receipt: "Receipt",
  "x402-payment": "x402 payment",
  "x402-settlement": "x402 settlement",
};

/** What the chain said about the settlement, in words. */
function settlementInWords(detail: PaymentDetail): string {
  const check = detail.settlementCheck;
  if (!check) return "Not checked on chain yet (or no RPC endpoint for this network).";
  switch (check.status) {
    case "confirmed":
      return `Confirmed on chain${check.blockNumber ? ` in block ${check.blockNumber}` : ""}: this authorization moved exactly this amount to the pay-to address.`;
    case "used":
      return "Collected: the token shows this authorization used.";
    case "unconfirmed":
      return `Not found on chain: the receiver's claimed settlement is not trusted. ${check.problem ?? ""}`.trim();
    case "mismatch":
      return `Flagged: the receiver's claimed settlement is not this payment. ${check.problem ?? ""}`.trim();
  }
}

/** One payment with its decoded Quote, Confirmation, Proof and Receipt and whether each verifies. */
export function PaymentDetailView({ detail, onClose }: { detail: PaymentDetail; onClose(): void }) {
  return (
    <section aria-labelledby="detail-heading" className="flex flex-col gap-2">
      <div className="flex items-center justify-between">
        <h2 id="detail-heading" className="font-semibold">
          Payment {detail.id}
        </h2>
        <Button onClick={onClose}>Back to payments</Button>
      </div>
      <dl className="grid grid-cols-[9rem_1fr] gap-1 text-sm">
        <dt>State</dt>
        <dd>
          {detail.state}
          {detail.reason ? ` — ${detail.reason}` : ""}
        </dd>
        <dt>Time</dt>
        <dd>{new Date(detail.createdAt).toISOString()}</dd>
        <dt>Origin</dt>
        <dd className="font-mono">{callerLabel(detail.origin)}</dd>
        <dt>Receiver</dt>
        <dd className="font-mono">{detail.receiver}</dd>
        <dt>Pay-to address</dt>
        <dd className="font-mono break-all">{detail.payTo}</dd>
        <dt>For</dt>
        <dd className="break-all">
          {detail.resource.kind === "http"
            ? `${detail.resource.method} ${detail.resource.url}`
            : `MCP tool ${detail.resource.tool} on ${detail.resource.server}`}
        </dd>
        <dt>Amount</dt>
        <dd>
          {showAmount(detail.amount)} on {detail.amount.networkName} ({detail.amount.atomic} atomic,{" "}
          {detail.amount.decimals} decimals)
        </dd>
        {detail.receiverSaid && (
          <>
            <dt>Receiver said</dt>
            <dd className="font-mono break-all" data-testid="receiver-said">
              {detail.receiverSaid}
            </dd>
          </>
        )}
        <dt>Settlement</dt>
        <dd data-testid="settlement-check">{settlementInWords(detail)}</dd>
        <dt>Settlement transaction</dt>
        <dd className="font-mono break-all" data-testid="settlement">
          {detail.settlementTransaction ?? "none yet"}
          {detail.explorerUrl && (
            <>
              {" "}
              <a className={LINK_CLASS} href={detail.explorerUrl} target="_blank" rel="noreferrer">
                View on the network's explorer
              </a>
            </>
          )}
        </dd>
      </dl>
      <ul aria-label="Signed objects" className="flex flex-col gap-2">
        {detail.objects.map((object) => (
          <li
            key={`${object.kind} ${object.compact ?? JSON.stringify(object.claims)}`}
            className="rounded border border-slate-200 p-2 dark:border-slate-800"
          >
            <p className="font-medium">
              {KIND[object.kind]}:{" "}
              {object.verified ? (
                <span className="text-emerald-700 dark:text-emerald-400">signature verifies</span>
              ) : (
                <span className="font-semibold text-red-700 dark:text-red-400">
                  signature does not verify{object.problem ? ` (${object.problem})` : ""}
                </span>
              )}
            </p>
            <details>
              <summary className="cursor-pointer text-sm focus-visible:outline-2">Decoded</summary>
              <pre className="overflow-auto text-xs">
                {JSON.stringify({ header: object.header, claims: object.claims }, null, 2)}
              </pre>
              {object.compact && <p className="font-mono text-xs break-all">{object.compact}</p>}
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
