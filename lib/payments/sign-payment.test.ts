import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { quoteFor } from "../../tests/unit-support/payments/test-support";
import {
  makeReceiver,
  makeWallet,
  NOW,
  ORIGIN,
  RAIL,
  T,
} from "../../tests/unit-support/protocol/envelope/test-fixtures";
import {
  readContext,
  v1Body,
  v2PaymentRequired,
} from "../../tests/unit-support/protocol/x402/test-fixtures";
import { objectHash } from "../protocol/envelope/object-hash";
import { verifyProof } from "../protocol/envelope/proof";
import { verifyQuote } from "../protocol/envelope/quote";
import { quoteToOffer } from "../protocol/envelope/quote-to-offer";
import type { Offer } from "../protocol/offer";
import { readHttp402 } from "../protocol/x402/http";
import { decodeBase64Json, encodeBase64Json } from "../protocol/x402/wire";
import { confirmOffer } from "./confirmation";
import { answerFor, signPayment } from "./sign-payment";

const account = privateKeyToAccount(generatePrivateKey());

function x402(version: 1 | 2, transport: "http" | "mcp" = "http"): Offer {
  const offer =
    version === 1
      ? readHttp402({ headers: { get: () => null }, body: JSON.stringify(v1Body) }, readContext())
      : readHttp402(
          { headers: { get: () => encodeBase64Json(v2PaymentRequired) }, body: "" },
          readContext(),
        );
  return { ...offer, transport };
}

/** The person's Confirmation of `option`, as the window signs it. */
function approvedConfirmation(
  offer: Offer,
  option: Offer["options"][number],
  signer: Awaited<ReturnType<typeof makeWallet>>,
): Promise<string> {
  const approved = {
    decision: "approve",
    mode: "popup",
    humanPresent: true,
    remaining: {},
  } as const;
  return confirmOffer(offer, option, "https://agent.example", approved, signer, T);
}

describe("signPayment", () => {
  it("embeds the Confirmation in an L2 Proof that the receiver accepts", async () => {
    const receiver = await makeReceiver();
    const jws = await quoteFor(receiver, { profile: "L2" });
    const quote = await verifyQuote(jws, { descriptor: receiver.descriptor, now: NOW });
    const offer = quoteToOffer(quote, "http");
    const option = offer.options[0] ?? expect.unreachable("no option");
    const signer = await makeWallet("EdDSA");
    const confirmation = await approvedConfirmation(offer, option, signer);
    const signed = await signPayment(offer, option, confirmation, account, signer, T);
    expect(signed.answer).toEqual({ header: { name: "Stipendex-Payment", value: signed.proof } });
    const proof = await verifyProof(signed.proof, { quote, receiverId: ORIGIN, now: NOW });
    expect(proof.claims.confirmation).toBe(confirmation);
    expect(proof.claims.ch).toBe(await objectHash(confirmation));
    expect(proof.claims.rail).toEqual(RAIL);
    expect(proof.claims.exp).toBe(T + RAIL.maxTimeoutSeconds);
    expect(proof.confirmation?.claims.decision).toBe("approve");
  });

  // §2: "authorization.to equals the rail's payTo"; the rail is copied into the Proof verbatim.
  it("pays the rail's payTo as the rail spells it, in the authorization as in the rail", async () => {
    const receiver = await makeReceiver();
    const rail = { ...RAIL, payTo: RAIL.payTo.toLowerCase() };
    const quote = await verifyQuote(await quoteFor(receiver, { rails: [rail] }), {
      descriptor: receiver.descriptor,
      now: NOW,
    });
    const offer = quoteToOffer(quote, "http");
    const option = offer.options[0] ?? expect.unreachable("no option");
    const signer = await makeWallet("EdDSA");
    const confirmation = await approvedConfirmation(offer, option, signer);
    const signed = await signPayment(offer, option, confirmation, account, signer, T);
    const proof = await verifyProof(signed.proof, { quote, receiverId: ORIGIN, now: NOW });
    expect(proof.claims.payment.authorization.to).toBe(rail.payTo);
    expect(proof.claims.rail.payTo).toBe(rail.payTo);
  });

  it.each([1, 2] as const)(
    "wraps x402 v%i for HTTP, and the ledger's copy gives the same answer",
    async (version) => {
      const offer = x402(version);
      const option = offer.options[0] ?? expect.unreachable("no option");
      const signed = await signPayment(offer, option, "", account, await makeWallet("EdDSA"), T);
      expect(answerFor(offer, signed.proof)).toEqual(signed.answer);
      expect(signed.answer.header?.name).toBe(version === 1 ? "X-PAYMENT" : "PAYMENT-SIGNATURE");
      const payload = decodeBase64Json(signed.proof, "proof") as {
        x402Version: number;
        payload: { authorization: { from: string; value: string } };
      };
      expect(payload.x402Version).toBe(version);
      expect(payload.payload.authorization).toMatchObject({
        from: account.address,
        value: "10000",
      });
    },
  );

  it("sends a v2 payload in X-PAYMENT where the price asks for it (seed 004's binding)", async () => {
    const plain = x402(2);
    const offer = {
      ...plain,
      x402: { ...(plain.x402 ?? expect.unreachable("x402")), retryHeader: "X-PAYMENT" as const },
    };
    const option = offer.options[0] ?? expect.unreachable("no option");
    const signed = await signPayment(offer, option, "", account, await makeWallet("EdDSA"), T);
    expect(signed.answer.header?.name).toBe("X-PAYMENT");
    expect(answerFor(offer, signed.proof)).toEqual(signed.answer);
    expect(decodeBase64Json(signed.proof, "proof")).toMatchObject({ x402Version: 2 });
  });

  it("keeps x402 MCP payments as JSON and answers with the x402/payment _meta", async () => {
    const offer = x402(2, "mcp");
    const option = offer.options[0] ?? expect.unreachable("no option");
    const signed = await signPayment(offer, option, "", account, await makeWallet("EdDSA"), T);
    const payload = JSON.parse(signed.proof) as Record<string, unknown>;
    expect(signed.answer).toEqual({ meta: { key: "x402/payment", value: payload } });
    expect(answerFor(offer, signed.proof)).toEqual(signed.answer);
  });
});

describe("answerFor", () => {
  it("answers a Stipendex MCP payment with the Proof's JSON form", async () => {
    const receiver = await makeReceiver();
    const quote = await verifyQuote(await quoteFor(receiver), {
      descriptor: receiver.descriptor,
      now: NOW,
    });
    const offer: Offer = { ...quoteToOffer(quote, "http"), transport: "mcp" };
    expect(answerFor(offer, quote.jws)).toEqual({
      meta: { key: "stipendex/payment", value: { stipendex: "proof/0.1", jws: quote.jws } },
    });
  });
});
