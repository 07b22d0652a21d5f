/**
 * The one shape every price the wallet meets is read into: a Stipendex Quote
 * (HTTP 402 body or MCP -32402), an x402 v1 body, an x402 v2
 * `PAYMENT-REQUIRED` header, or an x402 MCP `isError` result. Policy, the
 * confirmation window and the signer work on this and never on wire formats.
 */

export type Address = `0x${string}`;
export type Hex = `0x${string}`;

/** CAIP-2 chain id, e.g. "eip155:8453". x402 v1 names are mapped to it on read. */
export type Caip2 = `eip155:${number}`;

export type OfferProtocol = "stipendex" | "x402-v1" | "x402-v2";
export type OfferTransport = "http" | "mcp";

export type OfferResource =
  | { kind: "http"; method: string; url: string }
  | { kind: "mcp"; server: string; tool: string; argsHash: string };

/** One way to pay: an EIP-3009 `exact` transfer on an EVM chain. */
export interface PaymentOption {
  scheme: "exact";
  network: Caip2;
  chainId: number;
  asset: Address;
  /** Atomic units of the asset. */
  amount: bigint;
  decimals: number;
  symbol: string;
  payTo: Address;
  maxTimeoutSeconds: number;
  /** EIP-712 domain name and version of the asset contract. */
  eip712: { name: string; version: string };
  /** The rail / requirement exactly as received, to echo back verbatim. */
  raw: Readonly<Record<string, unknown>>;
  /** Fields the price left out that the wallet filled in with a documented default. */
  defaults?: readonly AppliedDefault[];
}

/** A field a price left out, and what the wallet used instead (shown to the person). */
export interface AppliedDefault {
  field: string;
  value: string;
}

export interface Offer {
  protocol: OfferProtocol;
  transport: OfferTransport;
  /**
   * Who is paid: the Quote's verified `iss`; for x402 (unsigned) the origin that
   * served the 402 as read, then the payee account once an option is chosen
   * (see lib/payments/payee.ts).
   */
  receiver: string;
  /** x402 only, once the payee is bound: the origin the page said the price came from. */
  claimedBy?: string;
  /**
   * x402 only: why the Stipendex Quote served beside this price was not taken (it did not
   * read or verify), so this unsigned price is the one paid.
   */
  quoteRefused?: string;
  /**
   * x402 only: why the server's other options could not be read (the first few), said when
   * none of those read may be paid: the refusal then names every option's reason.
   */
  unread?: readonly string[];
  /**
   * x402 over MCP only: the price came as the text of a tool's answer alone (no
   * structuredContent, no `_meta`), where a tool may pass on text from anywhere.
   */
  priceInToolText?: true;
  /** Stipendex only: the name the receiver's descriptor gives it (the Quote verified under it). */
  receiverName?: string;
  resource: OfferResource;
  description: string;
  /** Display total as the receiver states it (Stipendex `total`); never used for budgets. */
  displayTotal?: { amount: string; currency: string };
  options: PaymentOption[];
  /** Stipendex only: the verified Quote. */
  quote?: {
    jws: string;
    id: string;
    hash: string;
    issuedAt: number;
    expiresAt: number;
    profile?: "L0" | "L1" | "L2";
  };
  /** Fields of the price as a whole the wallet filled in (e.g. a missing x402Version). */
  defaults?: readonly AppliedDefault[];
  /** x402 only: the decoded PaymentRequired object, kept for the answer. */
  x402?: {
    version: 1 | 2;
    paymentRequired: Readonly<Record<string, unknown>>;
    /**
     * The retry's header when it is not the version's own: seed 004's binding (an HTTP 402
     * on an MCP JSON-RPC POST) is retried with X-PAYMENT, whatever x402Version its body states.
     */
    retryHeader?: "X-PAYMENT";
  };
}
