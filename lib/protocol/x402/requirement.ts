import { getAddress, isAddress } from "viem";
import { z } from "zod";
import type { ProtocolErrorCode } from "../errors";
import type { AppliedDefault, PaymentOption } from "../offer";
import { assertSaneAmount, parseAtomicAmount } from "../rails/amount";
import { MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS } from "../rails/eip3009";
import { assertTokenDomain, type Registry } from "../rails/registry";
import { jsonObjectSchema, readX402 } from "./schema";

/** Seed 004's servers allow 60 s ("We default to a 60-second window"): short, as a wallet should sign. */
export const DEFAULT_TIMEOUT_SECONDS = 60;

/** The fields refused with a code of their own; any other problem is malformed-payment-required. */
const FIELD_CODES: Readonly<Record<string, ProtocolErrorCode>> = {
  scheme: "unsupported-scheme",
  "extra.assetTransferMethod": "unsupported-transfer-method",
  payTo: "invalid-address",
  maxTimeoutSeconds: "invalid-timeout",
  "extra.name": "domain-missing",
  "extra.version": "domain-missing",
};

/** `exact` is the one scheme this wallet pays. */
const schemeSchema = z.looseObject({
  scheme: z.literal("exact", { error: 'this wallet pays only "exact"' }),
});

/** `extra` is optional (null too, as x402's own schema has it), else an object; the asset must move by EIP-3009. */
const transferSchema = z.looseObject({
  extra: z
    .looseObject(
      {
        assetTransferMethod: z
          .literal("eip3009", { error: 'this wallet signs only EIP-3009 ("eip3009")' })
          .optional(),
      },
      { error: "not an object" },
    )
    .nullish(),
});

const notAnAddress = { error: "not an EVM address" };
const badTimeout = {
  error: `not a whole number of seconds from ${MIN_TIMEOUT_SECONDS} (a receiver refuses an authorization with less than 6 s left)`,
};

/** Who is paid, and how long the signature may be used (a null timeout takes the default). */
const payeeSchema = z.looseObject({
  // All capitals carry no checksum, as all lower case does not (x402's schema takes any case);
  // mixed case must check out, so a mistyped address is refused.
  payTo: z
    .string(notAnAddress)
    .refine((payTo) => isAddress(payTo) || /^0x[0-9A-F]{40}$/.test(payTo), notAnAddress),
  // No upper bound in x402: a longer one is signed for MAX_TIMEOUT_SECONDS (see readRequirement).
  maxTimeoutSeconds: z.int(badTimeout).min(MIN_TIMEOUT_SECONDS, badTimeout).nullish(),
});

const domainMissing = { error: "the EIP-712 domain needs a non-empty name and version" };
const domainField = z.string(domainMissing).min(1, domainMissing);

/** An EIP-712 domain the requirement names itself. */
const domainSchema = z.looseObject({
  extra: z.looseObject({ name: domainField, version: domainField }),
});

/**
 * Read one entry of `accepts` into a PaymentOption, or throw the named reason it cannot be
 * paid. v1 names the amount `maxAmountRequired`; v2 (and seed 004's trimmed v1) `amount`.
 * Fields are checked in this order so the reason given is the telling one: a Solana option is
 * refused for its network, not for a payTo that is no EVM address.
 */
export function readRequirement(
  entry: unknown,
  version: 1 | 2,
  index: number,
  registry: Registry,
): PaymentOption {
  const at = `accepts[${index}]`;
  const read = <S extends z.ZodType>(schema: S) =>
    readX402(schema, entry, at, "malformed-payment-required", FIELD_CODES);
  const requirement = read(jsonObjectSchema);
  read(schemeSchema);
  const network = registry.network(requirement.network);
  const extra = read(transferSchema).extra ?? {};
  const token = registry.token(network, requirement.asset);
  const amountField =
    version === 1 && "maxAmountRequired" in requirement ? "maxAmountRequired" : "amount";
  const amount = parseAtomicAmount(requirement[amountField], `${at}.${amountField}`);
  assertSaneAmount(amount, token.decimals, `${at}.${amountField}`);
  const payee = read(payeeSchema);
  const defaults: AppliedDefault[] = [];
  // A null timeout is an absent one: it takes the default, and the person is told so.
  if (payee.maxTimeoutSeconds === undefined || payee.maxTimeoutSeconds === null) {
    defaults.push({ field: `${at}.maxTimeoutSeconds`, value: `${DEFAULT_TIMEOUT_SECONDS} s` });
  }
  // The token's own domain is the one signed, or one it is also known by, as named. A
  // requirement may leave it out (then it is listed as a default); half a domain, or another
  // one, is refused: a server's mistake or a trap, never shown to the person, and the chain
  // would refuse the signature.
  let eip712 = token.eip712;
  if (extra.name === undefined && extra.version === undefined) {
    defaults.push({
      field: `${at}.extra.name/version`,
      value: `${eip712.name} / ${eip712.version} (the wallet's own for ${token.symbol})`,
    });
  } else {
    const { name, version } = read(domainSchema).extra;
    eip712 = { name, version };
    assertTokenDomain(token, eip712, `${at}.extra`);
  }
  return {
    scheme: "exact",
    network: network.caip2,
    chainId: network.chainId,
    asset: token.address,
    amount,
    decimals: token.decimals,
    symbol: token.symbol,
    payTo: getAddress(payee.payTo),
    // A server that allows more than a day to settle gets a day: a verifier asks only that the
    // authorization still holds when it settles, and a charge is held no longer than it may be
    // collected (black-box review: a 2-day x402 price went unpaid).
    maxTimeoutSeconds: Math.min(
      payee.maxTimeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
      MAX_TIMEOUT_SECONDS,
    ),
    eip712: { name: eip712.name, version: eip712.version },
    raw: requirement,
    ...(defaults.length > 0 ? { defaults } : {}),
  };
}
