import { errorGuard, StipendexError } from "../errors";

/**
 * Why the protocol layer refused something. Each code is stable: the background
 * maps codes to wire errors and receivers report them as refusal reasons.
 */
export type ProtocolErrorCode =
  // Canonical JSON (RFC 8785)
  /** A value JSON cannot carry (bigint, function, symbol, undefined in an array, Date, Map…). */
  | "unsupported-json-value"
  /** NaN and ±Infinity have no JSON form (RFC 8785 §3.2.2.3). */
  | "non-finite-number"
  /** I-JSON (RFC 7493), which RFC 8785 requires, forbids unpaired surrogates. */
  | "lone-surrogate"
  /** A value to canonicalize contains itself. */
  | "cyclic-value"
  // Envelope: Stipendex objects and descriptors
  /** The text is not a compact JWS this wallet can read (shape, base64url, header JSON). */
  | "malformed-jws"
  /** A JSON form is not `{ stipendex, jws }` with string members. */
  | "malformed-json-form"
  /** A `stipendex` marker names no object type/version this wallet knows. */
  | "unknown-object-type"
  /** A known object arrived where another type was expected. */
  | "object-type-mismatch"
  /** The signature does not verify under the key it names. */
  | "bad-signature"
  /** The `alg` is not one this object may use. */
  | "unsupported-algorithm"
  /** The protected header's `typ` is not the expected one. */
  | "wrong-typ"
  /** `exp` has passed (or `iat` is older than allowed). */
  | "expired"
  /** `iat` or `nbf` lies in the future beyond the clock tolerance. */
  | "not-yet-valid"
  /** A Quote's `exp - iat` is outside 30–600 s. */
  | "lifetime-out-of-range"
  /** A claim is missing or has the wrong shape. */
  | "invalid-claims"
  /** An amount is not a decimal string of atomic units (a claim, or an x402 amount). */
  | "amount-not-integer"
  /** An amount is below zero. */
  | "negative-amount"
  /** An amount claim does not fit in uint256. */
  | "amount-out-of-range"
  /** `iss` is not who must have issued the object. */
  | "issuer-mismatch"
  /** `aud` is not the receiver this object is for. */
  | "audience-mismatch"
  /** A Receipt's `sub` is not the paying wallet. */
  | "subject-mismatch"
  /** A wallet object's `kid` is not its header key's RFC 7638 thumbprint. */
  | "kid-mismatch"
  /** The `kid` names no key of the receiver's descriptor. */
  | "key-not-in-descriptor"
  /** A receiver descriptor does not have the §4 shape. */
  | "invalid-descriptor"
  /** A descriptor's `id` is not the origin it was fetched from. */
  | "descriptor-id-mismatch"
  /** A receiver id is not an https origin (or http on loopback). */
  | "insecure-receiver-id"
  /** A registry-signed descriptor names no trusted registry key. */
  | "untrusted-registry-key"
  /** A Quote rail's network/asset/payTo is not listed by the descriptor. */
  | "rail-not-in-descriptor"
  /** A stablecoin rail's amount disagrees with the display `total`. */
  | "total-mismatch"
  /** A Quote's `resource` is not the request the client made. */
  | "resource-mismatch"
  /** A Quote's resource kind does not fit the transport it came on. */
  | "transport-mismatch"
  /** A Proof's `rail` is not a verbatim copy of a Quote rail. */
  | "proof-rail-mismatch"
  /** The authorization's `to`/`value` differ from the rail's `payTo`/`amount`. */
  | "payment-rail-mismatch"
  /** The EIP-3009 time window is not acceptable for this Proof. */
  | "authorization-window"
  /** A `qh` is not the hash of the Quote it should bind. */
  | "quote-hash-mismatch"
  /** A Receipt's `ph` is not the hash of the Proof sent. */
  | "proof-hash-mismatch"
  /** A Proof's `ch` is not the hash of its embedded Confirmation. */
  | "confirmation-hash-mismatch"
  /** A profile L2 Quote was paid without an embedded Confirmation. */
  | "confirmation-required"
  /** The embedded Confirmation says `decline`. */
  | "confirmation-declined"
  /** Objects that must come from one wallet were signed by different keys. */
  | "wallet-mismatch"
  /** A Quote `jti` was already used. */
  | "replayed-quote"
  /** A Receipt's settlement does not match the payment made. */
  | "settlement-mismatch"
  /** Verification failed for a reason no narrower code names. */
  | "verification-failed"
  // Rails: networks, tokens, amounts, EIP-3009
  /** A network is neither a CAIP-2 id nor an x402 v1 name of an EVM chain this wallet knows. */
  | "unknown-network"
  /** No known token on the network has that address (or, alone there, that symbol). */
  | "unknown-asset"
  /** A token entry has no whole number of decimals from 0 to 36. */
  | "missing-decimals"
  /** A token entry is not an object, or has a bad address, symbol, currency or EIP-712 domain. */
  | "invalid-token"
  /** A price names another EIP-712 domain for a known token than the one its contract signs with. */
  | "domain-mismatch"
  /** An amount to pay is zero. */
  | "zero-amount"
  /** An amount is more than a billion whole units of its asset. */
  | "absurd-amount"
  /** A display amount is not a decimal like "0.01" or "12". */
  | "amount-syntax"
  /** A display amount has more fraction digits than the asset's decimals. */
  | "amount-precision"
  /** A payment option's chain id is not its network's. */
  | "wrong-chain-id"
  /** An EIP-3009 nonce is not 32 bytes of hex. */
  | "invalid-nonce"
  /** `maxTimeoutSeconds` is not a whole number from 7 to 86400. */
  | "invalid-timeout"
  /** A payee is not a (checksum-valid) EVM address. */
  | "invalid-address"
  // x402
  /** A 402 body, header or MCP result is over the 64 KiB cap; it is not parsed. */
  | "body-too-large"
  /** An x402 header is not standard base64 of UTF-8. */
  | "header-not-base64"
  /** A 402 body, decoded header or MCP text is not JSON. */
  | "not-json"
  /** A PaymentRequired's `x402Version` is neither 1 nor 2. */
  | "unsupported-x402-version"
  /** A PaymentRequired (or one of its `accepts` entries) does not have the x402 shape. */
  | "malformed-payment-required"
  /** A requirement's scheme is not `exact`, the only one this wallet pays. */
  | "unsupported-scheme"
  /** A requirement's asset moves by something other than EIP-3009. */
  | "unsupported-transfer-method"
  /** A requirement names half an EIP-712 domain, or a name/version that is not a non-empty string. */
  | "domain-missing"
  /** No `accepts` entry is one this wallet can pay; the message lists why for each. */
  | "no-payable-option"
  /** A settle response (header or MCP `_meta`) does not have the x402 shape. */
  | "malformed-settle-response"
  /** An HTTP 402 carries neither a `PAYMENT-REQUIRED` header nor a body to read. */
  | "not-x402-payment-required"
  /** A payment was to be built for an option, or an offer, that is not an x402 one on offer. */
  | "option-not-offered";

/** Every refusal of the protocol layer (canonical JSON, envelope, rails, x402): one class, told apart by `code`. */
export class ProtocolError extends StipendexError {
  override name = "ProtocolError";
  declare readonly code: ProtocolErrorCode;

  constructor(code: ProtocolErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** Whether `error` is a ProtocolError, with one of `codes` when any are given. */
export const isProtocolError = errorGuard(ProtocolError);

/** Show a value the way it arrived, bounded so a hostile input cannot flood a message. */
export function quote(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : String(JSON.stringify(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The value at `path` in `input` (undefined where there is none), to show in a message. */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = Reflect.get(current, key);
  }
  return current;
}
