import { describe, expect, it } from "vitest";
import {
  confirmationInput,
  makeReceiver,
  makeWallet,
  NOW,
  ORIGIN,
  quoteInput,
  T,
} from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import type { ProtocolErrorCode } from "../errors";
import { signConfirmation, verifyConfirmation } from "./confirmation";
import { signQuote, verifyQuote } from "./quote";

const refused = (code: ProtocolErrorCode) =>
  expect.objectContaining({ name: "ProtocolError", code });

async function setup(alg: "EdDSA" | "ES256") {
  const receiver = await makeReceiver();
  const quote = await verifyQuote(await signQuote(quoteInput(), receiver.key), {
    descriptor: receiver.descriptor,
    now: NOW,
  });
  return { quote, wallet: await makeWallet(alg) };
}

describe.each(["EdDSA", "ES256"] as const)("Confirmation signed with %s", (alg) => {
  it("round-trips under its header jwk with iss = thumbprint URI", async () => {
    const { quote, wallet } = await setup(alg);
    const jws = await signConfirmation(confirmationInput(quote), wallet);
    const confirmation = await verifyConfirmation(jws, {
      receiverId: ORIGIN,
      quoteHash: quote.hash,
      now: NOW,
    });
    expect(confirmation.claims).toMatchObject({
      stipendex: "confirmation/0.1",
      iss: wallet.id,
      decision: "approve",
    });
    expect(confirmation.header).toMatchObject({
      alg,
      kid: wallet.kid,
      typ: "stipendex-confirmation+jwt",
    });
    expect(confirmation.publicJwk).toEqual(wallet.publicJwk);
  });
});

describe("Confirmation refusals", () => {
  it("refuses another receiver, another Quote, expiry and a policy without rule", async () => {
    const { quote, wallet } = await setup("EdDSA");
    const jws = await signConfirmation(confirmationInput(quote), wallet);
    await expect(
      verifyConfirmation(jws, { receiverId: "https://x.example", now: NOW }),
    ).rejects.toThrow(refused("audience-mismatch"));
    await expect(
      verifyConfirmation(jws, { receiverId: ORIGIN, quoteHash: "x".repeat(43), now: NOW }),
    ).rejects.toThrow(refused("quote-hash-mismatch"));
    await expect(
      verifyConfirmation(jws, { receiverId: ORIGIN, now: new Date((T + 200) * 1000) }),
    ).rejects.toThrow(refused("expired"));
    await expect(
      signConfirmation({ ...confirmationInput(quote), mode: "policy" }, wallet),
    ).rejects.toThrow(refused("invalid-claims"));
    const withRule = await signConfirmation(
      { ...confirmationInput(quote), mode: "policy", rule: "small-search" },
      wallet,
    );
    await expect(
      verifyConfirmation(withRule, { receiverId: ORIGIN, now: NOW }),
    ).resolves.toBeTruthy();
  });
});
