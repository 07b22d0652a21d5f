import assert from "node:assert/strict";
import { decodeJwt, decodeProtectedHeader, generateKeyPair } from "jose";
import type { PaymentChallenge } from "../../../lib/messages";
import { toJsonForm } from "../../../lib/protocol/envelope/json-form";
import { type QuoteInput, signQuote } from "../../../lib/protocol/envelope/quote";

/** The page hostile.html, served by startServer on an origin of its own. */
export const HOSTILE_PAGE = "/hostile.html";

export interface QuoteJsonForm {
  stipendex: string;
  jws: string;
}

/** A fresh Quote from a Stipendex HTTP receiver, fetched from Node as a page would meet it. */
export async function fetchQuote(url: string): Promise<QuoteJsonForm> {
  const response = await fetch(url);
  assert.equal(response.status, 402);
  const { quote } = (await response.json()) as { quote: QuoteJsonForm };
  return quote;
}

/**
 * The same Quote claims (iss = the real receiver, same kid) for `url`, signed
 * by a fresh Ed25519 key the receiver never published.
 */
export async function forgeQuote(real: QuoteJsonForm, url: string): Promise<QuoteJsonForm> {
  const { stipendex: _, ...claims } = decodeJwt(real.jws) as unknown as QuoteInput & {
    stipendex: string;
  };
  const { kid } = decodeProtectedHeader(real.jws);
  const { privateKey } = await generateKeyPair("EdDSA");
  const jws = await signQuote(
    { ...claims, jti: `forged-${claims.jti}`, resource: { http: { method: "GET", url } } },
    { kid: kid ?? "forged", alg: "EdDSA", key: privateKey },
  );
  return toJsonForm("quote", jws);
}

/** What the page's hook would hand the wallet for a Stipendex 402 on `url`. */
export function httpChallenge(url: string, quote: QuoteJsonForm): PaymentChallenge {
  return {
    transport: "http",
    url,
    method: "GET",
    body: JSON.stringify({ quote }),
    paymentRequiredHeader: null,
  };
}

const REFUSALS = [-32601, 4100];

/** Every forged UI call must come back refused (unknown method or unauthorized). */
export function assertAllRefused(answers: Record<string, unknown>): void {
  for (const [name, answer] of Object.entries(answers)) {
    const { ok, error } = answer as { ok?: boolean; error?: { code?: number } };
    assert.equal(ok, false, `${name}: ${JSON.stringify(answer)}`);
    assert.ok(REFUSALS.includes(error?.code ?? 0), `${name}: ${JSON.stringify(answer)}`);
  }
}
