import { describe, expect, it } from "vitest";
import {
  AGENT,
  AUTO_BUDGET,
  CALLER,
  makeHarness,
  stipendexHttpChallenge,
  stipendexMcpChallenge,
  TEST_AUTO_BUDGET,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import { decodeBase64Json } from "../protocol/x402/wire";
import { signedAuthorizationOf } from "./signed-transfer";

describe("signedAuthorizationOf", () => {
  const auto = { policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } };

  it("reads back the EIP-3009 authorization of a Stipendex Proof, HTTP and MCP", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    for (const made of [
      await stipendexHttpChallenge(h.receiver),
      await stipendexMcpChallenge(h.receiver),
    ]) {
      const answer = await h.engine.pay({ requestId: made.jws, challenge: made.challenge }, CALLER);
      const payment = await h.db.payments.get(answer.paymentId);
      if (!payment) return expect.unreachable("the payment was not recorded");
      const read = signedAuthorizationOf(payment);
      expect(read).toMatchObject({
        token: payment.asset,
        from: h.unlocked.address,
        to: payment.payTo,
        value: BigInt(payment.amount),
      });
      expect(read?.nonce).toMatch(/^0x[0-9a-f]{64}$/);
      expect(Number(read?.validBefore)).toBeGreaterThan(h.clock.ms / 1000);
    }
  });

  it.each([1, 2] as const)(
    "reads back the authorization of an x402 v%i payment header",
    async (version) => {
      const h = await makeHarness(auto);
      const answer = await h.engine.pay(
        { requestId: "x", challenge: x402HttpChallenge(version) },
        CALLER,
      );
      const payment = await h.db.payments.get(answer.paymentId);
      if (!payment) return expect.unreachable("the payment was not recorded");
      const sent = decodeBase64Json(answer.header?.value ?? "", "sent") as {
        payload: { authorization: { nonce: string; validBefore: string } };
      };
      expect(signedAuthorizationOf(payment)).toEqual({
        token: payment.asset,
        from: h.unlocked.address,
        to: payment.payTo,
        value: BigInt(payment.amount),
        nonce: sent.payload.authorization.nonce,
        validBefore: BigInt(sent.payload.authorization.validBefore),
      });
    },
  );

  it("is undefined for a payment that holds no proof", async () => {
    const h = await makeHarness();
    const paid = h.engine.pay({ requestId: "n", challenge: x402HttpChallenge(2) }, CALLER);
    paid.catch(() => undefined);
    const payment = await h.db.payments
      .toCollection()
      .first()
      .then(async (found) => {
        for (let i = 0; !found && i < 50; i++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          found = await h.db.payments.toCollection().first();
        }
        return found;
      });
    if (!payment) return expect.unreachable("the payment was not recorded");
    expect(signedAuthorizationOf(payment)).toBeUndefined();
  });
});
