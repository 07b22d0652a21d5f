import { ProtocolError } from "../errors";

/** Remembers which Quotes were used; the wallet's ledger and receivers each keep one. */
export interface QuoteReplayGuard {
  /** Records the Quote as used; false if it already was. */
  claim(issuer: string, jti: string, expiresAt: number): boolean | Promise<boolean>;
}

/** A used Quote is kept this long after its `exp`, beyond any clock tolerance that could still accept it. */
const RETENTION_AFTER_EXP_SECONDS = 60;

/** In-memory guard for tests and the demo receiver; forgets Quotes once they can no longer verify. */
export class MemoryQuoteReplayGuard implements QuoteReplayGuard {
  private readonly used = new Map<string, number>();

  constructor(private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000)) {}

  claim(issuer: string, jti: string, expiresAt: number): boolean {
    const now = this.nowSeconds();
    for (const [key, exp] of this.used) {
      if (exp + RETENTION_AFTER_EXP_SECONDS < now) this.used.delete(key);
    }
    const key = JSON.stringify([issuer, jti]);
    if (this.used.has(key)) return false;
    this.used.set(key, expiresAt);
    return true;
  }
}

/** Claims a Quote once or throws a "replayed-quote" ProtocolError. */
export async function claimQuoteOnce(
  guard: QuoteReplayGuard,
  quote: { claims: { iss: string; jti: string; exp: number } },
): Promise<void> {
  const { iss, jti, exp } = quote.claims;
  if (!(await guard.claim(iss, jti, exp))) {
    throw new ProtocolError(
      "replayed-quote",
      `Quote ${JSON.stringify(jti)} from ${iss} was already used`,
    );
  }
}
