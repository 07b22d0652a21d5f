import { decodeJwt, decodeProtectedHeader } from "jose";
import type { Hex } from "viem";
import { explorerUrl } from "../chain/explorers";
import type { PaymentRecord, WalletDb } from "../db/schema";
import { errorText } from "../errors";
import type {
  DecodedObject,
  DisplayAmount,
  PaymentDetail,
  PaymentFilter,
  PaymentOrder,
  PaymentRow,
} from "../messages";
import { verifyConfirmation } from "../protocol/envelope/confirmation";
import { objectHash } from "../protocol/envelope/object-hash";
import { verifyProof } from "../protocol/envelope/proof";
import { verifyQuote } from "../protocol/envelope/quote";
import { verifyReceipt } from "../protocol/envelope/receipt";
import { isProtocolError } from "../protocol/errors";
import { formatAmount } from "../protocol/rails/amount";
import type { Registry } from "../protocol/rails/registry";
import { paymentCount } from "../wallet/ledger";
import { confirmationAudience } from "./confirmation";
import type { DescriptorSource } from "./descriptors";
import { unknownPayment } from "./errors";
import { assertResultServed } from "./receipts";
import { claimedTransactionOf } from "./settlement-tracker";

/** Newest first (or oldest), through the index that fits the filter best; the rest is filtered in the cursor. */
export function query(db: WalletDb, filter: PaymentFilter, order: PaymentOrder = "newest") {
  const from = filter.from ?? 0;
  const to = filter.to ?? Number.MAX_SAFE_INTEGER;
  const indexed =
    filter.origin !== undefined
      ? db.payments
          .where("[origin+createdAt]")
          .between([filter.origin, from], [filter.origin, to], true, true)
      : filter.receiver !== undefined
        ? db.payments
            .where("[receiver+createdAt]")
            .between([filter.receiver, from], [filter.receiver, to], true, true)
        : filter.state !== undefined
          ? db.payments
              .where("[state+createdAt]")
              .between([filter.state, from], [filter.state, to], true, true)
          : db.payments.where("createdAt").between(from, to, true, true);
  const text = filter.text?.trim().toLowerCase();
  const needsFilter =
    (filter.origin !== undefined &&
      (filter.receiver !== undefined || filter.state !== undefined)) ||
    (filter.receiver !== undefined && filter.state !== undefined) ||
    Boolean(text);
  const collection = order === "newest" ? indexed.reverse() : indexed;
  if (!needsFilter) return collection;
  return collection.filter(
    (p) =>
      (filter.receiver === undefined || p.receiver === filter.receiver) &&
      (filter.state === undefined || p.state === filter.state) &&
      (!text || searchable(p).includes(text)),
  );
}

function searchable(p: PaymentRecord): string {
  return [
    p.origin,
    p.receiver,
    whatOf(p),
    p.describedTool ?? "",
    p.offer.description,
    p.state,
    p.reason ?? "",
    p.payTo,
  ]
    .join(" ")
    .toLowerCase();
}

function whatOf(p: PaymentRecord): string {
  return p.resource.kind === "http" ? p.resource.url : p.resource.tool;
}

export function displayAmount(
  registry: Registry,
  p: Pick<PaymentRecord, "amount" | "decimals" | "symbol" | "network">,
): DisplayAmount {
  let networkName: string = p.network;
  let testnet = false;
  try {
    const network = registry.network(p.network);
    networkName = network.label;
    testnet = network.testnet;
  } catch {
    // A network removed from the registry since: show its id.
  }
  return {
    atomic: p.amount,
    decimals: p.decimals,
    symbol: p.symbol,
    formatted: formatAmount(BigInt(p.amount), p.decimals),
    network: p.network,
    networkName,
    testnet,
  };
}

/**
 * What a history row says beside its state: the payment's reason, and for one
 * whose receiver claimed a settlement the chain does not show (or shows as
 * another payment), that doubt: its state alone would say "settled".
 */
function rowReason(p: PaymentRecord): string | undefined {
  const { settlement } = p;
  const doubt =
    settlement?.status === "unconfirmed"
      ? `Not confirmed on chain: ${settlement.problem ?? "the claimed transaction was not found"}.`
      : settlement?.status === "mismatch"
        ? `The claimed settlement is not this payment: ${settlement.problem ?? "it does not match"}.`
        : undefined;
  return [p.reason, doubt].filter((part) => part !== undefined).join(" ") || undefined;
}

export function toRow(registry: Registry, p: PaymentRecord): PaymentRow {
  const reason = rowReason(p);
  return {
    id: p.id,
    createdAt: p.createdAt,
    state: p.state,
    origin: p.origin,
    receiver: p.receiver,
    ...(p.offer.receiverName === undefined ? {} : { receiverName: p.offer.receiverName }),
    what: whatOf(p),
    ...(p.describedTool === undefined ? {} : { describedTool: p.describedTool }),
    amount: displayAmount(registry, p),
    ...(reason === undefined ? {} : { reason }),
  };
}

export async function listPayments(
  db: WalletDb,
  registry: Registry,
  filter: PaymentFilter,
  offset: number,
  limit: number,
  order: PaymentOrder = "newest",
): Promise<{ rows: PaymentRow[]; total: number }> {
  const isEmpty = Object.values(filter).every((v) => v === undefined || v === "");
  const [records, total] = await Promise.all([
    query(db, filter, order).offset(offset).limit(Math.min(limit, 500)).toArray(),
    isEmpty ? paymentCount(db) : query(db, filter).count(),
  ]);
  return { rows: records.map((p) => toRow(registry, p)), total };
}

/**
 * The settlement transaction as the chain check last saw it (found, or the
 * claim it looked at), else as the receipt claims it. `settlement.status`
 * says which it was.
 */
function settlementTransactionOf(p: PaymentRecord): Hex | undefined {
  return p.settlement?.transaction ?? claimedTransactionOf(p);
}

/** Every payment the filter selects, for export (CSV or JSON). */
export async function exportPayments(
  db: WalletDb,
  registry: Registry,
  filter: PaymentFilter,
  format: "csv" | "json",
): Promise<{ filename: string; mimeType: string; content: string }> {
  const records = await query(db, filter).toArray();
  const stamp = new Date().toISOString().slice(0, 10);
  if (format === "json") {
    const content = JSON.stringify(
      records.map((p) => ({
        ...toRow(registry, p),
        payTo: p.payTo,
        transaction: settlementTransactionOf(p) ?? null,
        settlement: p.settlement?.status ?? null,
        describedTool: p.describedTool ?? null,
      })),
      null,
      2,
    );
    return { filename: `stipendex-payments-${stamp}.json`, mimeType: "application/json", content };
  }
  const header = [
    "id",
    "time",
    "state",
    "origin",
    "receiver",
    "what",
    "amount",
    "symbol",
    "atomic",
    "decimals",
    "network",
    "payTo",
    "transaction",
    "settlement",
    "reason",
    "describedTool",
  ];
  const lines = records.map((p) => {
    const row = toRow(registry, p);
    return [
      p.id,
      new Date(p.createdAt).toISOString(),
      p.state,
      p.origin,
      p.receiver,
      row.what,
      row.amount.formatted,
      p.symbol,
      p.amount,
      String(p.decimals),
      p.network,
      p.payTo,
      settlementTransactionOf(p) ?? "",
      p.settlement?.status ?? "",
      p.reason ?? "",
      p.describedTool ?? "",
    ]
      .map(csvCell)
      .join(",");
  });
  return {
    filename: `stipendex-payments-${stamp}.csv`,
    mimeType: "text/csv",
    content: `${[header.join(","), ...lines].join("\r\n")}\r\n`,
  };
}

/** RFC 4180 quoting, and a leading quote mark against spreadsheet formula injection. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One payment with its four objects decoded and each signature checked again. */
export async function paymentDetail(
  db: WalletDb,
  registry: Registry,
  descriptors: DescriptorSource,
  id: string,
): Promise<PaymentDetail> {
  const p = await db.payments.get(id);
  if (!p) throw unknownPayment(id);
  const objects: DecodedObject[] = [];
  const quote = p.offer.quote;
  const check = async (
    kind: DecodedObject["kind"],
    compact: string,
    verify: (at: Date) => Promise<unknown>,
  ) => {
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      header = decodeProtectedHeader(compact) as Record<string, unknown>;
      claims = decodeJwt(compact) as Record<string, unknown>;
    } catch (error) {
      // Kept as received (a receiver's broken receipt): shown raw, with why, and the rest still opens.
      const problem = `not a compact JWS: ${errorText(error)}`;
      objects.push({ kind, claims: { raw: compact }, verified: false, problem });
      return;
    }
    // Checked as of when it was made: an object does not stop being genuine when it expires.
    const at = new Date(Number(claims.iat ?? 0) * 1000);
    let problem: string | undefined;
    let keyNoLongerListed = false;
    try {
      await verify(at);
    } catch (error) {
      problem = errorText(error);
      keyNoLongerListed = isProtocolError(error, "key-not-in-descriptor");
    }
    objects.push({
      kind,
      compact,
      header,
      claims,
      verified: problem === undefined,
      ...(problem === undefined ? {} : { problem }),
      ...(keyNoLongerListed ? { keyNoLongerListed: true as const } : {}),
    });
  };
  const descriptor = quote ? await descriptors.get(p.receiver).catch(() => undefined) : undefined;
  if (quote) {
    await check("quote", quote.jws, async (now) => {
      if (!descriptor) throw new Error(`descriptor of ${p.receiver} unavailable`);
      return verifyQuote(quote.jws, { descriptor, now });
    });
  }
  if (p.confirmation) {
    const confirmation = p.confirmation;
    await check("confirmation", confirmation, (now) =>
      // x402 Confirmations made before they named the serving origin name the payee account.
      verifyConfirmation(confirmation, {
        receiverId: [...new Set([confirmationAudience(p.offer), p.receiver])],
        now,
      }),
    );
  }
  if (p.proof && quote && descriptor) {
    const proof = p.proof;
    await check("proof", proof, async (now) => {
      const verifiedQuote = await verifyQuote(quote.jws, { descriptor, now });
      return verifyProof(proof, { quote: verifiedQuote, receiverId: p.receiver, now });
    });
  } else if (p.proof) {
    objects.push({ kind: "x402-payment", claims: { payment: p.proof }, verified: true });
  }
  if (p.receipt && quote && p.proof) {
    const { receipt, proof } = p;
    await check("receipt", receipt, async (now) => {
      if (!descriptor) throw new Error(`descriptor of ${p.receiver} unavailable`);
      // Hashed in here: a Proof that is no compact JWS is this check's problem, not the page's.
      const proofHash = await objectHash(proof);
      const verified = await verifyReceipt(receipt, {
        descriptor,
        quoteHash: quote.hash,
        proofHash,
        now,
      });
      assertResultServed(verified.claims.resultHash, p.servedHash);
    });
  } else if (p.receipt) {
    let claims: Record<string, unknown>;
    try {
      claims = JSON.parse(p.receipt) as Record<string, unknown>;
    } catch {
      claims = { raw: p.receipt };
    }
    // Whether it was collected is the chain check's to say (settlementCheck).
    objects.push({ kind: "x402-settlement", claims, verified: false, unsigned: true });
  }
  const transaction = settlementTransactionOf(p);
  const explorer = transaction ? explorerUrl(p.network, transaction) : undefined;
  return {
    ...toRow(registry, p),
    resource:
      p.resource.kind === "http"
        ? {
            ...p.resource,
            ...(p.describedTool === undefined ? {} : { call: { tool: p.describedTool } }),
          }
        : { kind: "mcp", server: p.resource.server, tool: p.resource.tool },
    payTo: p.payTo,
    network: p.network,
    objects,
    ...(transaction ? { settlementTransaction: transaction } : {}),
    ...(explorer ? { explorerUrl: explorer } : {}),
    ...(p.settlement
      ? {
          settlementCheck: {
            status: p.settlement.status,
            ...(p.settlement.blockNumber ? { blockNumber: p.settlement.blockNumber } : {}),
            ...(p.settlement.problem ? { problem: p.settlement.problem } : {}),
          },
        }
      : {}),
    ...(p.receiverSaid ? { receiverSaid: p.receiverSaid } : {}),
    ...(p.offerTrimmed ? { offerTrimmed: true } : {}),
  };
}
