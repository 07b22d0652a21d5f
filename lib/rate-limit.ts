export interface RateLimit {
  /** Requests allowed per window, and the most that may come at once. */
  limit: number;
  windowMs: number;
  /** Keys remembered at most; the least recently seen is forgotten first. */
  maxKeys: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per key (an origin): `limit` tokens, refilled evenly over
 * `windowMs`. A full bucket is the same as none, so idle keys are forgotten,
 * and at most `maxKeys` are kept.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly rate: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token for `key`: 0 when it got one, else how many ms until it would. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.refilled(key, now);
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      return this.untilToken(bucket);
    }
    // Re-inserted, so the Map's order is least recently seen first.
    this.buckets.delete(key);
    this.buckets.set(key, { tokens: bucket.tokens - 1, at: now });
    this.forgetBeyondMax(now);
    return 0;
  }

  /** How many ms until `key` would get a token (0: it would now), taking none. */
  waitFor(key: string): number {
    const bucket = this.refilled(key, this.now());
    return bucket.tokens < 1 ? this.untilToken(bucket) : 0;
  }

  /** How many keys are remembered (for tests of the bound). */
  get size(): number {
    return this.buckets.size;
  }

  private untilToken(bucket: Bucket): number {
    return Math.ceil(((1 - bucket.tokens) * this.rate.windowMs) / this.rate.limit);
  }

  private refilled(key: string, now: number): Bucket {
    const bucket = this.buckets.get(key);
    if (!bucket) return { tokens: this.rate.limit, at: now };
    const earned = (Math.max(0, now - bucket.at) * this.rate.limit) / this.rate.windowMs;
    return { tokens: Math.min(this.rate.limit, bucket.tokens + earned), at: now };
  }

  private forgetBeyondMax(now: number): void {
    if (this.buckets.size <= this.rate.maxKeys) return;
    for (const key of this.buckets.keys()) {
      if (this.refilled(key, now).tokens >= this.rate.limit) this.buckets.delete(key);
    }
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.rate.maxKeys) return;
      this.buckets.delete(key);
    }
  }
}
