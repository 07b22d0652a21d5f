import { getAddress, isHex, type LocalAccount, toHex } from "viem";
import { ProtocolError, quote } from "../errors";
import type { Address, Hex, PaymentOption } from "../offer";
import { assertSaneAmount } from "./amount";
import { resolveNetwork } from "./networks";

/** The x402 `exact` EVM payload: numbers as decimal strings, as the official packages send them. */
export interface ExactEvmPayload {
  signature: Hex;
  authorization: {
    from: Address;
    to: Address;
    value: string;
    validAfter: string;
    validBefore: string;
    nonce: Hex;
  };
}

export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** x402 clients backdate validAfter by ten minutes so a slow facilitator clock still accepts it. */
const VALID_AFTER_BACKDATE_SECONDS = 600;
export const MAX_TIMEOUT_SECONDS = 86_400;
/**
 * A receiver refuses an authorization with less than 6 s left (envelope.md
 * section 7; x402's exact verify does too): a shorter window would be signed
 * and charged only to be refused.
 */
export const MIN_TIMEOUT_SECONDS = 7;
/** What a timeout outside the bounds is told. */
export const TIMEOUT_BOUNDS = `a whole number from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS} (a receiver refuses an authorization with less than 6 s left)`;

function checkOption(option: PaymentOption): void {
  if (resolveNetwork(option.network).chainId !== option.chainId) {
    throw new ProtocolError(
      "wrong-chain-id",
      `chain id ${quote(option.chainId)} does not match network ${option.network}`,
    );
  }
  const timeout = option.maxTimeoutSeconds;
  if (
    !Number.isInteger(timeout) ||
    timeout < MIN_TIMEOUT_SECONDS ||
    timeout > MAX_TIMEOUT_SECONDS
  ) {
    throw new ProtocolError(
      "invalid-timeout",
      `maxTimeoutSeconds must be ${TIMEOUT_BOUNDS}, got ${quote(timeout)}`,
    );
  }
  assertSaneAmount(option.amount, option.decimals);
}

/**
 * Sign an EIP-3009 TransferWithAuthorization for `option`. Call it only after the payment was
 * approved: the validity window starts at `now` (unix seconds).
 */
export async function signTransferWithAuthorization(
  account: LocalAccount,
  option: PaymentOption,
  { now, nonce }: { now: number; nonce?: Hex },
): Promise<ExactEvmPayload> {
  checkOption(option);
  if (nonce !== undefined && !(isHex(nonce, { strict: true }) && nonce.length === 66)) {
    throw new ProtocolError(
      "invalid-nonce",
      `EIP-3009 nonce must be 32 bytes of hex, got ${quote(nonce)}`,
    );
  }
  const seconds = Math.floor(now);
  const message = {
    from: account.address,
    to: getAddress(option.payTo),
    value: option.amount,
    validAfter: BigInt(seconds - VALID_AFTER_BACKDATE_SECONDS),
    validBefore: BigInt(seconds + option.maxTimeoutSeconds),
    nonce: nonce ?? toHex(globalThis.crypto.getRandomValues(new Uint8Array(32))),
  };
  const signature = await account.signTypedData({
    domain: {
      name: option.eip712.name,
      version: option.eip712.version,
      chainId: option.chainId,
      verifyingContract: getAddress(option.asset),
    },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: "TransferWithAuthorization",
    message,
  });
  return {
    signature,
    authorization: {
      from: message.from,
      to: message.to,
      value: message.value.toString(),
      validAfter: message.validAfter.toString(),
      validBefore: message.validBefore.toString(),
      nonce: message.nonce,
    },
  };
}
