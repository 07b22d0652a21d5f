import type { LocalAccount } from "viem";
import type { PaymentAnswer } from "../messages";
import { toJsonForm } from "../protocol/envelope/json-form";
import { objectHash } from "../protocol/envelope/object-hash";
import { signProof } from "../protocol/envelope/proof";
import type { WalletSigner } from "../protocol/envelope/wallet-key";
import type { Offer, PaymentOption } from "../protocol/offer";
import { signTransferWithAuthorization } from "../protocol/rails/eip3009";
import { X402_HEADERS } from "../protocol/x402/headers";
import { MCP_PAYMENT_META } from "../protocol/x402/mcp";
import {
  buildPaymentPayload,
  mcpPaymentMeta,
  paymentHeader,
  type X402PaymentPayload,
} from "../protocol/x402/payment";
import { randomId } from "../random-id";

export interface SignedPayment {
  /** What the ledger keeps: the Proof's compact JWS, or the x402 header value / JSON. */
  proof: string;
  /** How the hook retries: header or MCP `_meta` entry (paymentId filled by the caller). */
  answer: Omit<PaymentAnswer, "paymentId">;
}

/**
 * Signs the rail payment (EIP-3009, computed now: after the approval) and wraps
 * it as a Stipendex Proof bound to the Quote and the Confirmation, or as the
 * x402 payload for the server's version. The Confirmation may still be being
 * signed: the rail payment does not need it, so both are signed at once.
 */
export async function signPayment(
  offer: Offer,
  option: PaymentOption,
  confirmation: string | Promise<string>,
  account: LocalAccount,
  signer: WalletSigner,
  nowSeconds: number,
): Promise<SignedPayment> {
  const [payment, confirmed] = await Promise.all([
    signTransferWithAuthorization(account, option, { now: nowSeconds }),
    confirmation,
  ]);
  if (offer.quote) {
    const rail = option.raw as Parameters<typeof signProof>[0]["rail"];
    const proof = await signProof(
      {
        aud: offer.receiver,
        jti: randomId(),
        iat: nowSeconds,
        exp: Number(payment.authorization.validBefore),
        qh: offer.quote.hash,
        ch: await objectHash(confirmed),
        ...(offer.quote.profile === "L2" ? { confirmation: confirmed } : {}),
        rail,
        // §2: `to` equals the rail's payTo as the rail spells it (signed alike in any letter case).
        payment: { ...payment, authorization: { ...payment.authorization, to: rail.payTo } },
      },
      signer,
    );
    return { proof, answer: answerFor(offer, proof) };
  }
  const x402 = buildPaymentPayload(offer, option, payment);
  const proof = offer.transport === "mcp" ? JSON.stringify(x402) : paymentHeader(x402).value;
  return { proof, answer: answerFor(offer, proof) };
}

/**
 * How the hook retries with a signed payment, from what the ledger keeps: the
 * same answer after a worker restart as right after signing.
 */
export function answerFor(offer: Offer, proof: string): Omit<PaymentAnswer, "paymentId"> {
  if (offer.quote) {
    return offer.transport === "http"
      ? { header: { name: "Stipendex-Payment", value: proof } }
      : { meta: { key: "stipendex/payment", value: toJsonForm("proof", proof) } };
  }
  if (offer.transport === "mcp") {
    const payload = JSON.parse(proof) as X402PaymentPayload;
    return { meta: { key: MCP_PAYMENT_META, value: mcpPaymentMeta(payload)[MCP_PAYMENT_META] } };
  }
  const name =
    offer.x402?.version === 1
      ? X402_HEADERS.xPayment
      : (offer.x402?.retryHeader ?? X402_HEADERS.paymentSignature);
  return { header: { name, value: proof } };
}
