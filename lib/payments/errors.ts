import { StipendexError } from "../errors";

/**
 * The receiver's descriptor could not be fetched, read or used. One message
 * whatever went wrong, so that a page cannot map hosts by the wallet's
 * answers; `cause` says what happened, for the wallet itself.
 */
export class DescriptorUnavailableError extends StipendexError {
  override name = "DescriptorUnavailableError";
  constructor(receiver: string, cause: unknown) {
    super("descriptor-unavailable", `The receiver's descriptor at ${receiver} could not be used`, {
      cause,
    });
  }
}

/** The 402 / -32402 / isError result carried no price the wallet can read. */
export class UnreadableChallengeError extends StipendexError {
  override name = "UnreadableChallengeError";
  constructor(detail: string, options?: { cause?: unknown }) {
    super("unreadable-challenge", detail, options);
  }
}

/** The person (or the closed confirmation window) said no. */
export class UserDeclinedError extends StipendexError {
  override name = "UserDeclinedError";
  constructor(reason = "You declined the payment") {
    super("user-declined", reason);
  }
}

/** The policy refused the payment before anyone was asked. */
export class PolicyRefusedError extends StipendexError {
  override name = "PolicyRefusedError";
  readonly rule: string;
  constructor(rule: string, reason: string) {
    super("policy-refused", reason);
    this.rule = rule;
  }
}

/** A payment or approval id the caller named does not exist, or is not theirs. */
export class UnknownPaymentError extends StipendexError {
  override name = "UnknownPaymentError";
  constructor(id: string) {
    super("unknown-payment", `No payment ${JSON.stringify(id)} for this page`);
  }
}

/** A site already has as many requests waiting for the person as it may. */
export class TooManyWaitingError extends StipendexError {
  override name = "TooManyWaitingError";
  constructor(origin: string, limit: number) {
    super(
      "too-many-waiting",
      `${origin} already has ${limit} payment requests waiting for your decision; retry when one of them is answered`,
    );
  }
}

/** The facilitator reported that an x402 payment did not settle. */
export class SettlementFailedError extends StipendexError {
  override name = "SettlementFailedError";
  constructor(paymentId: string, reason: string) {
    super("settlement-failed", `Settlement of payment ${paymentId} failed: ${reason}`);
  }
}

/** The wallet is locked and nobody unlocked it in time. */
export class WalletLockedError extends StipendexError {
  override name = "WalletLockedError";
  constructor(detail = "The wallet is locked") {
    super("wallet-locked", detail);
  }
}

/** There is no wallet yet: create or import one first. */
export class NoWalletError extends StipendexError {
  override name = "NoWalletError";
  constructor() {
    super("no-wallet", "No wallet yet: create or import one in the wallet's popup");
  }
}
