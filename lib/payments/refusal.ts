import { z } from "zod";
import type { WireError } from "../messages";
import { isRecord } from "../protocol/rails/is-record";
import { readSettleResponse } from "../protocol/x402/settlement";
import { decodeBase64Json } from "../protocol/x402/wire";
import { jsonOrUndefined } from "./json-text";

/** A receiver's refusal of a signed payment: its own words, and what they mean. */
export interface Refusal {
  /** The reason the receiver gave (a code such as "insufficient_funds", or the token's revert text). */
  said: string;
  /** What it means, in plain words. */
  plain: string;
}

const withError = z.object({ error: z.string().min(1), detail: z.string().optional() });

/**
 * Reads why a receiver refused a payment on every path: a Stipendex 402 body
 * or -32402 `data` (`error`, `detail`), an x402 v1 body `error`, the x402 v2
 * `PAYMENT-REQUIRED` header's `error`, an x402 MCP `isError` result. What it
 * said is kept as said (bounded); what it means is said plainly.
 */
export function readRefusal(error: WireError, settleResponse?: unknown): Refusal {
  const said = (saidBy(error, settleResponse) ?? error.message).slice(0, 500);
  return { said, plain: plainly(said) };
}

/**
 * `settleResponse`: an x402 settle response that came with the refusal (the
 * v2 server answers a failed settlement 402, body `{}`, its reason only there).
 */
function saidBy(error: WireError, settleResponse: unknown): string | undefined {
  const candidates: unknown[] = [failedSettlement(settleResponse)];
  if (isRecord(error.data)) {
    if (typeof error.data.paymentRequired === "string") {
      candidates.push(tryDecode(error.data.paymentRequired));
    }
    candidates.push(error.data);
  }
  // x402 over MCP: the result's structuredContent, or its first text block as JSON.
  if (Array.isArray(error.data)) {
    const text = isRecord(error.data[0]) ? error.data[0].text : undefined;
    if (typeof text === "string") candidates.push(jsonOrUndefined(text));
  }
  candidates.push(jsonOrUndefined(error.message));
  // The official x402 MCP server wraps its answer: {"x402/error": {code, message, data}}.
  for (const candidate of [...candidates]) {
    const wrapped = isRecord(candidate) ? candidate["x402/error"] : undefined;
    if (isRecord(wrapped)) candidates.push(wrapped.data, wrapped);
  }
  for (const candidate of candidates) {
    const read = withError.safeParse(candidate);
    if (read.success) {
      const { error: code, detail } = read.data;
      return detail && detail !== code ? `${code}: ${detail}` : code;
    }
  }
  return undefined;
}

/** The token failures the x402 seed lists, and the other reasons receivers give, in words. */
const MEANINGS: [RegExp, string][] = [
  [/insufficient/i, "the paying address does not hold enough of the token"],
  [/invalid.?signature|signature/i, "the receiver could not verify the payment's signature"],
  [
    /nonce.*used|already.?used|authorization.?used|cancel/i,
    "this authorization was already used or canceled",
  ],
  [/valid.?after|not.?yet.?valid/i, "the authorization was not valid yet"],
  [/quote.?expired/i, "its price (the Quote) had expired"],
  [/expired|valid.?before/i, "the authorization had expired"],
  [/receiver|recipient|pay.?to/i, "the payment was addressed to another account"],
  [/parse|malformed|invalid.?payload/i, "the receiver could not read the payment"],
  [
    /invalid.?network|network.?mismatch|unsupported.?network/i,
    "it does not take this payment on that network",
  ],
  [/token.?(name|version)/i, "the token's signing details did not match the receiver's"],
  [/authorization.?value|value.?mismatch|amount/i, "the amount was not the one it asked for"],
  [
    /simulation|transaction.?failed|settle.?failed/i,
    "the token's contract would not make the transfer",
  ],
  [/payment.?identifier/i, "it wanted a payment id the wallet did not send"],
  [/scheme|unsupported/i, "it does not take payments made this way"],
];

function plainly(said: string): string {
  const meaning = MEANINGS.find(([pattern]) => pattern.test(said))?.[1];
  return meaning
    ? `The receiver refused the payment: ${meaning}.`
    : "The receiver refused the payment.";
}

/** A failed settle response's reason as `{ error, detail }`, else undefined. */
function failedSettlement(value: unknown): unknown {
  try {
    const decoded = typeof value === "string" ? decodeBase64Json(value, "settle response") : value;
    const settlement = readSettleResponse(decoded);
    if (settlement.success || settlement.errorReason === undefined) return undefined;
    return { error: settlement.errorReason, detail: settlement.errorMessage };
  } catch {
    return undefined;
  }
}

function tryDecode(header: string): unknown {
  try {
    return decodeBase64Json(header, "PAYMENT-REQUIRED");
  } catch {
    return undefined;
  }
}
