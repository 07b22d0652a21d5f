import type { QuoteClaims } from "../../lib/protocol/envelope/claims";
import { objectHash } from "../../lib/protocol/envelope/object-hash";
import { signQuote } from "../../lib/protocol/envelope/quote";
import type { ReceiverIdentity } from "./identity";
import { displayTotal, quoteRail, type RailTemplate } from "./rail";

export interface IssuedQuote {
  jws: string;
  hash: string;
  claims: QuoteClaims;
}

export interface QuoteRequest {
  resource: QuoteClaims["resource"];
  description: string;
  /** Atomic units of the rail's asset. */
  amount: bigint;
  profile?: "L1" | "L2";
  /** The authorization's window, when not the rail's. */
  maxTimeoutSeconds?: number;
}

/** How long a demo Quote lives: inside envelope.md's 30–600 s. */
export const QUOTE_LIFETIME_SECONDS = 120;

/**
 * The Quotes this receiver issued, by hash (`qh`): a Proof is only ever checked against a
 * Quote found here, never against claims the client sent back.
 */
export class QuoteBook {
  private readonly byHash = new Map<string, IssuedQuote>();

  constructor(
    private readonly identity: ReceiverIdentity,
    private readonly rail: RailTemplate,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async issue(request: QuoteRequest): Promise<IssuedQuote> {
    const iat = this.nowSeconds();
    const claims: QuoteClaims = {
      stipendex: "quote/0.1",
      iss: this.identity.id,
      jti: globalThis.crypto.randomUUID(),
      iat,
      exp: iat + QUOTE_LIFETIME_SECONDS,
      resource: request.resource,
      description: request.description,
      total: displayTotal(this.rail, request.amount),
      rails: [
        {
          ...quoteRail(this.rail, request.amount),
          ...(request.maxTimeoutSeconds ? { maxTimeoutSeconds: request.maxTimeoutSeconds } : {}),
        },
      ],
      ...(request.profile ? { profile: request.profile } : {}),
    };
    const { stipendex: _marker, ...input } = claims;
    const jws = await signQuote(input, {
      kid: this.identity.kid,
      alg: "EdDSA",
      key: this.identity.privateKey,
    });
    const issued = { jws, hash: await objectHash(jws), claims };
    this.forgetExpired(iat);
    this.byHash.set(issued.hash, issued);
    return issued;
  }

  find(hash: string): IssuedQuote | undefined {
    return this.byHash.get(hash);
  }

  private forgetExpired(now: number): void {
    for (const [hash, quote] of this.byHash) {
      if (quote.claims.exp + 60 < now) this.byHash.delete(hash);
    }
  }
}
