import { decodeJwt } from "jose";
import { canonicalize } from "../../lib/protocol/canonical-json";
import type { QuoteClaims } from "../../lib/protocol/envelope/claims";
import { readCompact } from "../../lib/protocol/envelope/compact";
import { type VerifiedProof, verifyProof } from "../../lib/protocol/envelope/proof";
import { signReceipt } from "../../lib/protocol/envelope/receipt";
import { claimQuoteOnce, MemoryQuoteReplayGuard } from "../../lib/protocol/envelope/replay-guard";
import type { Hex } from "../../lib/protocol/offer";
import { checkAuthorization } from "./check-authorization";
import { buildDescriptor } from "./descriptor";
import {
  ConfirmationMissingError,
  PaymentParseError,
  ResourceMismatchError,
  UnknownQuoteError,
} from "./errors";
import type { ReceiverIdentity } from "./identity";
import { type IssuedQuote, QuoteBook } from "./quote-book";
import type { RailTemplate } from "./rail";
import { toRefusal } from "./refusal";
import { type SettlementClient, settleAuthorization } from "./settle";

export interface ReceiverOptions {
  identity: ReceiverIdentity;
  name: string;
  rail: RailTemplate;
  /** The facilitator account that sends transferWithAuthorization. */
  client: SettlementClient;
}

/** A payment that verified and settled; the Receipt is signed once the result is known. */
export interface Redeemed {
  quote: IssuedQuote;
  proof: VerifiedProof;
  settlement: { network: string; transaction: Hex; amount: string; asset: string; payer: string };
}

export interface RedeemOptions {
  /**
   * Confirmations accepted by elicitation, Confirmation hash by Quote hash. When given, the
   * Proof's `ch` must be the one recorded for its Quote.
   */
  confirmations?: ReadonlyMap<string, string>;
}

/** Reads the `qh` a Proof claims, to find the Quote; the Proof itself is verified afterwards. */
function claimedQuoteHash(jws: string): string {
  let qh: unknown;
  try {
    qh = decodeJwt(readCompact(jws)).qh;
  } catch (cause) {
    throw new PaymentParseError(
      `The payment is not a compact Proof JWS: ${cause instanceof Error ? cause.message : cause}`,
      { cause },
    );
  }
  if (typeof qh !== "string") throw new PaymentParseError("The Proof has no string qh claim");
  return qh;
}

/**
 * The Stipendex reference receiver: issues Quotes, redeems Proofs (envelope checks from
 * lib/protocol, then EIP-3009 signature and nonce, once-only use, settlement), signs Receipts.
 */
export class StipendexReceiver {
  readonly quotes: QuoteBook;
  private readonly replay = new MemoryQuoteReplayGuard();

  constructor(private readonly options: ReceiverOptions) {
    this.quotes = new QuoteBook(options.identity, options.rail);
  }

  get id(): string {
    return this.options.identity.id;
  }

  descriptor() {
    return buildDescriptor(this.options.identity, {
      name: this.options.name,
      rails: [this.options.rail],
    });
  }

  /** Verify, check, claim and settle a Proof for the call described by `resource`. */
  async redeem(
    proofJws: unknown,
    resource: QuoteClaims["resource"],
    redeemOptions: RedeemOptions = {},
  ): Promise<Redeemed> {
    if (typeof proofJws !== "string") throw new PaymentParseError("The payment is not a string");
    const qh = claimedQuoteHash(proofJws);
    const quote = this.quotes.find(qh);
    if (!quote) throw new UnknownQuoteError(qh);
    const rail = quote.claims.rails[0];
    if (!rail) throw new UnknownQuoteError(qh);
    try {
      if (canonicalize(quote.claims.resource) !== canonicalize(resource)) {
        throw new ResourceMismatchError(
          canonicalize(resource),
          canonicalize(quote.claims.resource),
        );
      }
      const proof = await verifyProof(proofJws, {
        quote: { ...quote, header: { alg: "EdDSA" } },
        receiverId: this.id,
      });
      if (redeemOptions.confirmations) {
        const ch = redeemOptions.confirmations.get(quote.hash);
        if (ch === undefined || proof.claims.ch !== ch) {
          throw new ConfirmationMissingError(
            `The Proof's ch ${proof.claims.ch} is not the hash of a Confirmation accepted by elicitation for this Quote (${ch ?? "none accepted"})`,
          );
        }
      }
      await checkAuthorization(this.options.client, this.options.rail.chainId, proof.claims);
      await claimQuoteOnce(this.replay, quote);
      const { transaction } = await settleAuthorization(
        this.options.client,
        this.options.rail.asset,
        proof.claims.payment,
      );
      const a = proof.claims.payment.authorization;
      return {
        quote,
        proof,
        settlement: {
          network: rail.network,
          transaction,
          amount: a.value,
          asset: rail.asset,
          payer: a.from,
        },
      };
    } catch (error) {
      throw toRefusal(error, proofJws, rail);
    }
  }

  /** The receiver-signed Receipt for a redeemed payment and the result it served. */
  receipt(redeemed: Redeemed, resultHash: string): Promise<string> {
    const iat = Math.floor(Date.now() / 1000);
    return signReceipt(
      {
        iss: this.id,
        sub: redeemed.proof.walletId,
        jti: globalThis.crypto.randomUUID(),
        iat,
        qh: redeemed.quote.hash,
        ph: redeemed.proof.hash,
        status: "settled",
        settlement: redeemed.settlement,
        resultHash,
      },
      { kid: this.options.identity.kid, alg: "EdDSA", key: this.options.identity.privateKey },
    );
  }
}
