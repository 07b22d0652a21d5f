import {
  calculateJwkThumbprint,
  calculateJwkThumbprintUri,
  EmbeddedJWK,
  exportJWK,
  type JWK,
} from "jose";
import type { z } from "zod";
import { ProtocolError } from "../errors";
import { readCompact } from "./compact";
import {
  type EnvelopeCheck,
  peekHeader,
  signEnvelope,
  type Verified,
  verifyEnvelope,
} from "./envelope-jwt";
import { versionTag } from "./object-type";
import { parseClaims } from "./parse-claims";

export type WalletAlg = "EdDSA" | "ES256";
export const WALLET_ALGORITHMS: WalletAlg[] = ["EdDSA", "ES256"];

/** What a wallet signs with: its key pair and the ids derived from the public half. */
export interface WalletSigner {
  alg: WalletAlg;
  /** RFC 7638 thumbprint of `publicJwk`. */
  kid: string;
  /** `urn:ietf:params:oauth:jwk-thumbprint:sha-256:<kid>`: the wallet id, `iss` of its objects. */
  id: string;
  publicJwk: JWK;
  privateKey: CryptoKey;
}

export interface WalletIdentity {
  kid: string;
  id: string;
}

/** The wallet id a public JWK stands for (RFC 7638 thumbprint and its URI). */
export async function walletIdentity(publicJwk: JWK): Promise<WalletIdentity> {
  try {
    return {
      kid: await calculateJwkThumbprint(publicJwk, "sha256"),
      id: await calculateJwkThumbprintUri(publicJwk, "sha256"),
    };
  } catch (cause) {
    throw new ProtocolError("malformed-jws", "The wallet key (jwk) is not a usable public JWK", {
      cause,
    });
  }
}

function walletAlg(key: CryptoKey): WalletAlg {
  const algorithm = key.algorithm as { name: string; namedCurve?: string };
  if (algorithm.name === "Ed25519") return "EdDSA";
  if (algorithm.name === "ECDSA" && algorithm.namedCurve === "P-256") return "ES256";
  throw new ProtocolError(
    "unsupported-algorithm",
    `Wallet keys are Ed25519 or P-256, not ${algorithm.name} ${algorithm.namedCurve ?? ""}`.trim(),
  );
}

/** Builds the signer for an Ed25519 or P-256 key pair (public keys are always exportable). */
export async function walletSigner(keyPair: CryptoKeyPair): Promise<WalletSigner> {
  const alg = walletAlg(keyPair.privateKey);
  const { kty, crv, x, y } = await exportJWK(keyPair.publicKey);
  const publicJwk: JWK = y === undefined ? { kty, crv, x } : { kty, crv, x, y };
  return { alg, ...(await walletIdentity(publicJwk)), publicJwk, privateKey: keyPair.privateKey };
}

export type WalletCheck<S extends z.ZodType> = Omit<
  EnvelopeCheck<S>,
  "key" | "algorithms" | "issuer" | "subject"
>;

/**
 * Verifies a wallet-signed object under the `jwk` of its own header, and that
 * both `kid` and `iss` are that key's thumbprint (URI).
 */
export async function verifyWalletEnvelope<S extends z.ZodType>(
  input: unknown,
  check: WalletCheck<S>,
): Promise<Verified<z.output<S>> & { walletId: string; publicJwk: JWK }> {
  const what = `${check.type} header`;
  const header = peekHeader(readCompact(input), what);
  const jwk = header.jwk;
  if (typeof jwk !== "object" || jwk === null) {
    throw new ProtocolError("malformed-jws", `The ${what} carries no "jwk" (wallet objects must)`);
  }
  const identity = await walletIdentity(jwk);
  if (header.kid !== identity.kid) {
    throw new ProtocolError(
      "kid-mismatch",
      `The ${what} kid ${JSON.stringify(header.kid) ?? "nothing"} is not the jwk thumbprint ${identity.kid}`,
    );
  }
  // jose checks `iss` against the thumbprint URI through the issuer option.
  const verified = await verifyEnvelope(input, {
    ...check,
    key: EmbeddedJWK,
    algorithms: WALLET_ALGORITHMS,
    issuer: identity.id,
  });
  return { ...verified, walletId: identity.id, publicJwk: jwk };
}

/**
 * Validates claims (with `iss` = the wallet id), runs the object's own rules,
 * and signs with the wallet key, its public jwk in the header.
 */
export async function signWalletEnvelope<S extends z.ZodType>(
  type: "confirmation" | "proof",
  schema: S,
  claims: Record<string, unknown>,
  wallet: WalletSigner,
  assertRules: (checked: z.output<S>) => void = () => {},
): Promise<string> {
  const what = type === "proof" ? "Proof" : "Confirmation";
  const checked = parseClaims(
    schema,
    { ...claims, iss: wallet.id, stipendex: versionTag(type) },
    what,
  );
  assertRules(checked);
  const header = { alg: wallet.alg, kid: wallet.kid, jwk: wallet.publicJwk };
  return signEnvelope(type, { ...claims, iss: wallet.id }, header, wallet.privateKey);
}
