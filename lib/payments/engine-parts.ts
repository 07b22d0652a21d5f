import type { PaymentRecord, WalletDb } from "../db/schema";
import type { ElicitResult, McpServerReport } from "../messages";
import { type WalletSigner, walletSigner } from "../protocol/envelope/wallet-key";
import type { Offer, PaymentOption } from "../protocol/offer";
import type { Registry } from "../protocol/rails/registry";
import { type RateLimit, RateLimiter } from "../rate-limit";
import type { PayeeApprovals } from "../wallet/approved-payees";
import type { UnlockedWallet } from "../wallet/keyring";
import { advancePayment, type PaymentUpdate } from "../wallet/ledger";
import { resolveCharge } from "../wallet/limits";
import type { PolicySettings } from "../wallet/policy-settings";
import { SpendMirror } from "../wallet/spend-mirror";
import type { ApprovalQueue } from "./approvals";
import type { BalanceBook } from "./balance-book";
import { PaymentError, unknownPayment } from "./errors";
import type { ChallengeContext } from "./read-challenge";
import type { TrustedRegistry } from "./trust";

export interface EngineDeps {
  db: WalletDb;
  challenge: ChallengeContext;
  registry: Registry;
  approvals: ApprovalQueue;
  settings(): Promise<PolicySettings>;
  /** One read-modify-write of the settings as they are at that moment. */
  updateSettings(change: (settings: PolicySettings) => PolicySettings): Promise<PolicySettings>;
  /** The unlocked wallet, or undefined while locked. */
  wallet(): Promise<UnlockedWallet | undefined>;
  /** Whether a wallet `wallet()` gave is still unlocked (no lock since): in memory, checked right before signing. */
  walletOpen(wallet: UnlockedWallet): boolean;
  hasWallet(): Promise<boolean>;
  /**
   * What an MCP server declared and hinted (capabilities, tools/list prices), as the
   * origin's own pages reported it: another site's word on the server is not this one's.
   */
  serverReport(origin: string, server: string): Promise<McpServerReport | undefined>;
  /** The payees the person approved for each desktop app (lib/wallet/approved-payees.ts). */
  payees: Pick<PayeeApprovals, "approved" | "approve">;
  /** Registries the person trusts, and how to fetch a receiver's entry in one. */
  trustedRegistries(): Promise<readonly TrustedRegistry[]>;
  fetch: typeof fetch;
  /** Spendable balances per token: looked at (never waited for) on the hot path, read for the window. */
  balances: BalanceBook;
  now(): number;
}

/** How many of one site's requests may end refused or declined in a minute, recorded in the history. */
export const UNPAID_ENDS: RateLimit = { limit: 20, windowMs: 60_000, maxKeys: 256 };

export interface Caller {
  /** The page's (or frame's) origin as the browser reported it. */
  origin: string;
  tabId: number | undefined;
  frameId?: number;
  /** The origin of the tab's top-level page, when the browser says it. */
  topOrigin?: string;
  /** The person's own click in the wallet (the popup's Pay for a paywalled page) made this request. */
  byPerson?: true;
}

/** What the engine's steps share: the platform, this worker's running sums, its signers and clock. */
export class EngineParts {
  readonly spend: SpendMirror;
  private readonly signers = new WeakMap<UnlockedWallet, Promise<WalletSigner>>();
  /**
   * The elicitations being answered, by `elicitedBy`: one sent again meanwhile
   * (a relay's resend, a server's retry, each with a request id of its own)
   * waits for the same answer rather than asking and charging a second time.
   */
  readonly elicitations = new Map<string, Promise<ElicitResult>>();
  /** How many payments the ledger held after this worker's last automatic one. */
  private lastCount: number | undefined;
  /** Per origin, its requests that ended refused or declined (UNPAID_ENDS). */
  private readonly unpaidEnds: RateLimiter;

  constructor(readonly deps: EngineDeps) {
    this.spend = new SpendMirror(deps.db);
    this.unpaidEnds = new RateLimiter(UNPAID_ENDS, deps.now);
  }

  /**
   * Throws when `origin`'s requests ended refused or declined too often of
   * late to record another one: each is a history entry that cost the page
   * nothing. Automatic payments and requests already recorded never wait here.
   */
  assertMayRecord(origin: string): void {
    const wait = this.unpaidEnds.waitFor(origin);
    if (wait === 0) return;
    throw new PaymentError(
      "too-many-unpaid",
      `${UNPAID_ENDS.limit} payment requests from ${origin} were refused or declined within a minute; the wallet takes its next one in ${Math.ceil(wait / 1000)} s`,
    );
  }

  /** One of `origin`'s requests ended refused or declined. */
  endedUnpaid(origin: string): void {
    this.unpaidEnds.take(origin);
  }

  /** Ends `origin`'s payment `paymentId` unpaid in the ledger (refused, declined, expired), counted so. */
  async endUnpaid(
    origin: string,
    paymentId: string,
    update: Extract<PaymentUpdate, { state: "refused" | "declined" | "expired" }>,
  ): Promise<void> {
    this.endedUnpaid(origin);
    await advancePayment(this.deps.db, paymentId, update, this.deps.now());
  }

  /** The wallet key's JWS signer, built once per unlocked wallet (it exports and hashes the public key). */
  signer(wallet: UnlockedWallet): Promise<WalletSigner> {
    let signer = this.signers.get(wallet);
    if (!signer) {
      signer = walletSigner({
        privateKey: wallet.signingKey.privateKey,
        publicKey: wallet.signingKey.publicKey,
      });
      this.signers.set(wallet, signer);
    }
    return signer;
  }

  /** The ledger's payment count as this worker last left it: a hint the ledger checks (LedgerMemory). */
  remembered(): number | undefined {
    return this.lastCount;
  }

  counted(payments: number): void {
    this.lastCount = payments;
  }

  seconds(): number {
    return Math.floor(this.deps.now() / 1000);
  }
}

/** Whether a page's request came from a frame rather than the tab's page itself (the proxy's have no frame). */
export function isFrame(caller: Pick<Caller, "frameId">): boolean {
  return caller.frameId !== undefined && caller.frameId !== 0;
}

/** Who asks, as exactly as the browser tells: one caller's requests and Confirmations are never another's. */
export function callerKey(caller: Caller): string {
  return `${caller.origin} ${caller.tabId ?? "-"} ${caller.frameId ?? "-"}`;
}

/** What the ledger knows a page's payment request by: its caller and the hook's requestId. */
export function requestKeyOf(caller: Caller, requestId: string): string {
  return `${callerKey(caller)} ${requestId}`;
}

export function elicitedKey(caller: Caller, quoteHash: string): string {
  return `${callerKey(caller)} ${quoteHash}`;
}

/** The first option the user's settings allow, else the first (the policy then says why not). */
export function chooseOption(settings: PolicySettings, offer: Offer): PaymentOption {
  const allowed = offer.options.find((option) => resolveCharge(settings, option).ok);
  const chosen = allowed ?? offer.options[0];
  if (!chosen) throw new PaymentError("unreadable-challenge", "The price offers no way to pay");
  return chosen;
}

/** The option a recorded payment chose (the offer keeps them all). */
export function optionOf(payment: PaymentRecord): PaymentOption {
  const option = payment.offer.options.find(
    (o) =>
      o.network === payment.network &&
      o.asset.toLowerCase() === payment.asset.toLowerCase() &&
      o.payTo.toLowerCase() === payment.payTo.toLowerCase() &&
      o.amount.toString() === payment.amount,
  );
  if (!option) throw unknownPayment(payment.id);
  return option;
}
