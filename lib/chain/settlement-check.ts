import {
  BaseError,
  createPublicClient,
  erc20Abi,
  type Hex,
  http,
  isAddressEqual,
  parseAbi,
  parseEventLogs,
  TransactionReceiptNotFoundError,
} from "viem";
import type { Address } from "../protocol/offer";

/** The event an EIP-3009 token logs when an authorization is used. */
const EIP3009_ABI = parseAbi([
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
]);

/** The transfer a signed EIP-3009 authorization allows: what the chain is checked against. */
export interface SignedTransfer {
  token: Address;
  from: Address;
  to: Address;
  value: bigint;
  nonce: Hex;
}

/** What a settlement transaction shows. */
export type SettlementCheck =
  /** The transaction used this authorization and moved exactly the quoted amount to the quoted payee. */
  | { kind: "confirmed"; blockNumber: bigint }
  /** The chain does not know the transaction (yet, or ever). */
  | { kind: "unknown"; reason: string }
  /** The transaction exists but is not this payment: reverted, or other transfers. */
  | { kind: "mismatch"; reason: string };

/** A client of the node at `url` that gives up on a request after 8 s, without retrying. */
export const client = (url: string, fetchFn?: typeof fetch) =>
  createPublicClient({
    transport: http(url, { timeout: 8_000, retryCount: 0, ...(fetchFn ? { fetchFn } : {}) }),
  });

/**
 * Checks a settlement a receiver claims: transaction `hash` succeeded, the
 * token logged this authorization as used, and moved exactly `value` from
 * `from` to `to`. A claim the chain does not bear out is reported, not trusted.
 */
export async function checkSettlement(
  url: string,
  hash: Hex,
  transfer: SignedTransfer,
  options: { fetchFn?: typeof fetch } = {},
): Promise<SettlementCheck> {
  let receipt: Awaited<ReturnType<ReturnType<typeof client>["getTransactionReceipt"]>>;
  try {
    receipt = await client(url, options.fetchFn).getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) {
      return { kind: "unknown", reason: `No transaction ${hash} on this chain` };
    }
    throw error instanceof BaseError ? new Error(error.shortMessage, { cause: error }) : error;
  }
  if (receipt.status !== "success") {
    return { kind: "mismatch", reason: `Transaction ${hash} reverted` };
  }
  const fromToken = receipt.logs.filter((log) => isAddressEqual(log.address, transfer.token));
  const used = parseEventLogs({
    abi: EIP3009_ABI,
    logs: fromToken,
    eventName: "AuthorizationUsed",
  }).some(
    (log) =>
      isAddressEqual(log.args.authorizer, transfer.from) &&
      log.args.nonce.toLowerCase() === transfer.nonce.toLowerCase(),
  );
  if (!used) {
    return {
      kind: "mismatch",
      reason: `Transaction ${hash} did not use this payment's authorization`,
    };
  }
  const moved = parseEventLogs({ abi: erc20Abi, logs: fromToken, eventName: "Transfer" }).some(
    (log) =>
      isAddressEqual(log.args.from, transfer.from) &&
      isAddressEqual(log.args.to, transfer.to) &&
      log.args.value === transfer.value,
  );
  if (!moved) {
    return {
      kind: "mismatch",
      reason: `Transaction ${hash} did not move ${transfer.value} from ${transfer.from} to ${transfer.to}`,
    };
  }
  return { kind: "confirmed", blockNumber: receipt.blockNumber };
}
