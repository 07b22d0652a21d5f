import { getAddress, isAddress } from "viem";
import type { PaymentOption } from "../offer";
import { assertSaneAmount, parseAtomicAmount } from "../rails/amount";
import { MAX_TIMEOUT_SECONDS } from "../rails/eip3009";
import { InvalidAddressError, InvalidTimeoutError } from "../rails/errors";
import { isRecord } from "../rails/is-record";
import type { Registry } from "../rails/registry";
import {
  DomainMissingError,
  MalformedPaymentRequiredError,
  UnsupportedSchemeError,
  UnsupportedTransferMethodError,
} from "./errors";

function domainField(extra: Record<string, unknown>, key: "name" | "version", at: string): string {
  const value = extra[key];
  if (typeof value !== "string" || value.length === 0) {
    throw new DomainMissingError(`${at}.extra.${key}`, value);
  }
  return value;
}

/**
 * Read one entry of `accepts` into a PaymentOption, or throw the named reason it cannot be
 * paid. v1 names the amount `maxAmountRequired`; v2 (and seed 004's trimmed v1) `amount`.
 */
export function readRequirement(
  entry: unknown,
  version: 1 | 2,
  index: number,
  registry: Registry,
): PaymentOption {
  const at = `accepts[${index}]`;
  if (!isRecord(entry)) throw new MalformedPaymentRequiredError(at, "is not an object", entry);
  if (entry.scheme !== "exact") throw new UnsupportedSchemeError(`${at}.scheme`, entry.scheme);
  const network = registry.network(entry.network);
  const extra = entry.extra === undefined ? {} : entry.extra;
  if (!isRecord(extra))
    throw new MalformedPaymentRequiredError(`${at}.extra`, "is not an object", extra);
  const method = extra.assetTransferMethod;
  if (method !== undefined && method !== "eip3009") {
    throw new UnsupportedTransferMethodError(`${at}.extra.assetTransferMethod`, method);
  }
  const token = registry.token(network, entry.asset);
  const amountField =
    version === 1 && "maxAmountRequired" in entry ? "maxAmountRequired" : "amount";
  const amount = parseAtomicAmount(entry[amountField], `${at}.${amountField}`);
  assertSaneAmount(amount, token.decimals, `${at}.${amountField}`);
  const payTo = entry.payTo;
  if (typeof payTo !== "string" || !isAddress(payTo)) {
    throw new InvalidAddressError(`${at}.payTo`, payTo);
  }
  const timeout = entry.maxTimeoutSeconds;
  if (
    typeof timeout !== "number" ||
    !Number.isInteger(timeout) ||
    timeout < 1 ||
    timeout > MAX_TIMEOUT_SECONDS
  ) {
    throw new InvalidTimeoutError(timeout, MAX_TIMEOUT_SECONDS);
  }
  return {
    scheme: "exact",
    network: network.caip2,
    chainId: network.chainId,
    asset: token.address,
    amount,
    decimals: token.decimals,
    symbol: token.symbol,
    payTo: getAddress(payTo),
    maxTimeoutSeconds: timeout,
    eip712: { name: domainField(extra, "name", at), version: domainField(extra, "version", at) },
    raw: entry,
  };
}
