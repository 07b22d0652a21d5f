import type { Address, Caip2 } from "../protocol/offer";

/** How long a balance read counts as current. */
const FRESH_MS = 60_000;
/**
 * How long a payment (or the window) waits for a balance never tried lately
 * before it goes on without one (a read on a nearby node takes a few ms);
 * once tried, nothing waits again for a while.
 */
const WINDOW_WAIT_MS = 100;
/**
 * A copy too low for the payment the window shows is asked again once it is this old (the
 * person may have just topped up), and waited for this long: it decides what the window says.
 */
const SHORT_RECHECK_MS = 5_000;
const SHORT_WAIT_MS = 1_000;

/** What the wallet knows of a token's spendable balance: on chain less what signed payments may take. */
export interface KnownBalance {
  available: bigint;
  readAt: number;
}

/**
 * The spendable balance per token, kept in the background's memory: read
 * from the chain when first needed or once the copy is old, lowered by every
 * payment signed meanwhile. Only a token never tried lately is waited for,
 * briefly; a balance that cannot be read is not a reason to refuse.
 */
export class BalanceBook {
  private readonly known = new Map<string, KnownBalance>();
  private readonly reading = new Map<string, Promise<KnownBalance | undefined>>();
  /** When each token was last asked of the chain, read or not. */
  private readonly tried = new Map<string, number>();

  constructor(
    private readonly deps: {
      /** Reads one token's spendable balance now; undefined when it cannot be read. */
      read(network: Caip2, asset: Address): Promise<bigint | undefined>;
      now(): number;
    },
  ) {}

  /** What is known now, without waiting; an old copy is refreshed in the background. */
  peek(network: Caip2, asset: Address): KnownBalance | undefined {
    if (this.due(key(network, asset))) void this.refresh(network, asset);
    return this.known.get(key(network, asset));
  }

  /**
   * For the window: what is known, refreshed in the background when old; a
   * token never tried lately is waited for, at most `waitMs`. With `covering`,
   * the amount about to be shown, a copy short of it is read again if not
   * asked in the last SHORT_RECHECK_MS, and waited for up to SHORT_WAIT_MS.
   */
  async current(
    network: Caip2,
    asset: Address,
    waitMs = WINDOW_WAIT_MS,
    covering?: bigint,
  ): Promise<KnownBalance | undefined> {
    const k = key(network, asset);
    const known = this.known.get(k);
    const short =
      covering !== undefined &&
      known !== undefined &&
      known.available < covering &&
      this.deps.now() - (this.tried.get(k) ?? 0) > SHORT_RECHECK_MS;
    const inFlight = this.reading.get(k);
    if (!short && !this.due(k) && !inFlight) return known;
    const wait = short ? Math.max(waitMs, SHORT_WAIT_MS) : waitMs;
    const timeout = new Promise<undefined>((resolve) => setTimeout(resolve, wait));
    const read = await Promise.race([inFlight ?? this.refresh(network, asset), timeout]);
    return read ?? this.known.get(k);
  }

  /** A payment of `amount` was signed: that much less can be spent. */
  spent(network: Caip2, asset: Address, amount: bigint): void {
    const known = this.known.get(key(network, asset));
    if (known)
      this.known.set(key(network, asset), { ...known, available: known.available - amount });
  }

  /** Balances changed in ways the book did not see (a settlement, a release): read afresh next time. */
  forget(): void {
    this.known.clear();
    this.tried.clear();
  }

  /** Not asked of the chain lately (read or not): time to ask. */
  private due(k: string): boolean {
    const tried = this.tried.get(k);
    return tried === undefined || this.deps.now() - tried > FRESH_MS;
  }

  private refresh(network: Caip2, asset: Address): Promise<KnownBalance | undefined> {
    const k = key(network, asset);
    let reading = this.reading.get(k);
    if (!reading) {
      this.tried.set(k, this.deps.now());
      reading = this.deps
        .read(network, asset)
        .then((available) => {
          if (available === undefined) return undefined;
          const known = { available, readAt: this.deps.now() };
          this.known.set(k, known);
          return known;
        })
        .catch(() => undefined)
        .finally(() => this.reading.delete(k));
      this.reading.set(k, reading);
    }
    return reading;
  }
}

const key = (network: string, asset: string) => `${network} ${asset.toLowerCase()}`;
