import { getAddress, isAddress } from "viem";
import type { AppliedDefault, PaymentOption } from "../offer";
import { assertSaneAmount, parseAtomicAmount } from "../rails/amount";
import { MAX_TIMEOUT_SECONDS } from "../rails/eip3009";
import { InvalidAddressError, InvalidTimeoutError } from "../rails/errors";
import { isRecord } from "../rails/is-record";
import type { Registry } from "../rails/registry";
import type { Token } from "../rails/tokens";
import {
  DomainMissingError,
  MalformedPaymentRequiredError,
  UnsupportedSchemeError,
  UnsupportedTransferMethodError,
} from "./errors";

/** Seed 004's servers allow 60 s ("We default to a 60-second window"): short, as a wallet should sign. */
export const DEFAULT_TIMEOUT_SECONDS = 60;

function domainField(extra: Record<string, unknown>, key: "name" | "version", at: string): string {
  const value = extra[key];
  if (typeof value !== "string" || value.length === 0) {
    throw new DomainMissingError(`${at}.extra.${key}`, value);
  }
  return value;
}

/**
 * The EIP-712 domain to sign with: the requirement's own, or, when it names
 * neither field, the registry's domain for that token (a half-given domain is
 * refused: it is a server's mistake, not an omission).
 */
function domainOf(
  extra: Record<string, unknown>,
  token: Token,
  at: string,
): { name: string; version: string; defaulted: boolean } {
  if (extra.name === undefined && extra.version === undefined) {
    return { ...token.eip712, defaulted: true };
  }
  return {
    name: domainField(extra, "name", at),
    version: domainField(extra, "version", at),
    defaulted: false,
  };
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
  const defaults: AppliedDefault[] = [];
  const timeout = entry.maxTimeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  if (entry.maxTimeoutSeconds === undefined) {
    defaults.push({ field: `${at}.maxTimeoutSeconds`, value: `${DEFAULT_TIMEOUT_SECONDS} s` });
  }
  if (
    typeof timeout !== "number" ||
    !Number.isInteger(timeout) ||
    timeout < 1 ||
    timeout > MAX_TIMEOUT_SECONDS
  ) {
    throw new InvalidTimeoutError(timeout, MAX_TIMEOUT_SECONDS);
  }
  const eip712 = domainOf(extra, token, at);
  if (eip712.defaulted) {
    defaults.push({
      field: `${at}.extra.name/version`,
      value: `${eip712.name} / ${eip712.version} (the wallet's own for ${token.symbol})`,
    });
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
    eip712: { name: eip712.name, version: eip712.version },
    raw: entry,
    ...(defaults.length > 0 ? { defaults } : {}),
  };
}
