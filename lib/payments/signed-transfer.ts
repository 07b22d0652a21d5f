import { decodeJwt } from "jose";
import { getAddress, isAddress } from "viem";
import { z } from "zod";
import type { SignedTransfer } from "../chain/settlement-check";
import type { PaymentRecord } from "../db/schema";
import type { Address, Hex } from "../protocol/offer";
import { decodeBase64Json } from "../protocol/x402/wire";

const address = z
  .string()
  .refine((value) => isAddress(value, { strict: false }), "must be an address")
  .transform((value): Address => getAddress(value));
const nonce = z.custom<Hex>(
  (value) => typeof value === "string" && /^0x[0-9a-fA-F]{64}$/.test(value),
  "must be 32 bytes of hex",
);
const uint = z
  .string()
  .regex(/^[0-9]+$/)
  .transform((value) => BigInt(value));

/** The EIP-3009 authorization inside what the wallet signed (a Proof's `payment`, an x402 `payload`). */
const signedPayment = z.object({
  authorization: z.object({ from: address, to: address, value: uint, validBefore: uint, nonce }),
});
const inProof = z.object({ payment: signedPayment });
const inX402 = z.object({ payload: signedPayment });

/** A signed payment's transfer and the second it stops being collectable. */
export interface SignedAuthorization extends SignedTransfer {
  /** Unix seconds: after this the token refuses the authorization. */
  validBefore: bigint;
}

/**
 * The authorization a payment's stored proof carries, read back from the
 * wallet's own signed object (a Stipendex Proof JWS, or the x402 payload as
 * header value or MCP JSON); undefined when the payment holds no proof.
 */
export function signedAuthorizationOf(payment: PaymentRecord): SignedAuthorization | undefined {
  if (!payment.proof) return undefined;
  const { authorization } = payment.offer.quote
    ? inProof.parse(decodeJwt(payment.proof)).payment
    : inX402.parse(
        payment.offer.transport === "mcp"
          ? JSON.parse(payment.proof)
          : decodeBase64Json(payment.proof, "stored x402 payment"),
      ).payload;
  return { token: payment.asset, ...authorization };
}
