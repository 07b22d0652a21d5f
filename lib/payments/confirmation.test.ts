import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { quoteFor } from "../../tests/unit-support/payments/test-support";
import {
  makeReceiver,
  makeWallet,
  NOW,
  ORIGIN,
  T,
} from "../../tests/unit-support/protocol/envelope/test-fixtures";
import { readContext, v1Body } from "../../tests/unit-support/protocol/x402/test-fixtures";
import { canonicalize, sha256Base64url } from "../protocol/canonical-json";
import { verifyConfirmation } from "../protocol/envelope/confirmation";
import { verifyQuote } from "../protocol/envelope/quote";
import { quoteToOffer } from "../protocol/envelope/quote-to-offer";
import { readHttp402 } from "../protocol/x402/http";
import { confirmOffer, offerHash, shownTotal } from "./confirmation";
import { bindPayee } from "./payee";

async function stipendexOffer() {
  const receiver = await makeReceiver();
  const jws = await quoteFor(receiver);
  const quote = await verifyQuote(jws, { descriptor: receiver.descriptor, now: NOW });
  return { quote, offer: quoteToOffer(quote, "http") };
}

const x402Offer = readHttp402(
  { headers: { get: () => null }, body: JSON.stringify(v1Body) },
  readContext(),
);

describe("offerHash and shownTotal", () => {
  it("use the Quote's hash and total for Stipendex", async () => {
    const { quote, offer } = await stipendexOffer();
    const option = offer.options[0] ?? expect.unreachable("no option");
    expect(await offerHash(offer, option)).toBe(quote.hash);
    expect(shownTotal(offer, option)).toEqual({ amount: "0.005", currency: "USD" });
  });

  it("hash the chosen requirement's JCS and show the exact amount for x402", async () => {
    const option = x402Offer.options[0] ?? expect.unreachable("no option");
    expect(await offerHash(x402Offer, option)).toBe(
      await sha256Base64url(canonicalize(v1Body.accepts[0])),
    );
    expect(shownTotal(x402Offer, option)).toEqual({ amount: "0.01", currency: "USDC" });
  });
});

describe("confirmOffer", () => {
  it("signs what was decided, for the browser-reported origin, living 600 s", async () => {
    const { quote, offer } = await stipendexOffer();
    const option = offer.options[0] ?? expect.unreachable("no option");
    const wallet = await makeWallet("EdDSA");
    const jws = await confirmOffer(
      offer,
      option,
      "https://agent.example",
      {
        decision: "approve",
        mode: "policy",
        rule: "origin-auto-approve",
        humanPresent: false,
        remaining: { "All sites, today": "4.995 USD" },
      },
      wallet,
      T,
    );
    const verified = await verifyConfirmation(jws, {
      receiverId: ORIGIN,
      quoteHash: quote.hash,
      now: NOW,
    });
    expect(verified.claims).toMatchObject({
      aud: ORIGIN,
      iat: T,
      exp: T + 600,
      origin: "https://agent.example",
      decision: "approve",
      mode: "policy",
      rule: "origin-auto-approve",
      humanPresent: false,
      shown: {
        description: "One web search",
        total: { amount: "0.005", currency: "USD" },
        remaining: { "All sites, today": "4.995 USD" },
      },
    });
  });

  it("addresses an x402 payment's Confirmation to the origin that served it, not its payee", async () => {
    const option = x402Offer.options[0] ?? expect.unreachable("no option");
    const bound = bindPayee(x402Offer, option);
    expect(bound.receiver).toMatch(/^eip155:/);
    const jws = await confirmOffer(
      bound,
      option,
      "https://agent.example",
      { decision: "approve", mode: "popup", humanPresent: true, remaining: {} },
      await makeWallet("EdDSA"),
      T,
    );
    expect(decodeJwt(jws).aud).toBe("http://127.0.0.1:4021");
  });

  it("leaves the rule out of a person's decision", async () => {
    const option = x402Offer.options[0] ?? expect.unreachable("no option");
    const jws = await confirmOffer(
      x402Offer,
      option,
      "https://agent.example",
      { decision: "decline", mode: "popup", humanPresent: true, remaining: {} },
      await makeWallet("ES256"),
      T,
    );
    const verified = await verifyConfirmation(jws, {
      receiverId: "http://127.0.0.1:4021",
      now: NOW,
    });
    expect(verified.claims).not.toHaveProperty("rule");
    expect(verified.claims.decision).toBe("decline");
  });
});
