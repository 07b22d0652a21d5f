import { describe, expect, it } from "vitest";
import {
  AGENT,
  AUTO_BUDGET,
  CALLER,
  type Harness,
  MCP_SERVER,
  makeHarness,
  SEARCH_CALL,
  stipendexHttpChallenge,
  stipendexMcpChallenge,
  until,
} from "../../tests/unit-support/payments/test-support";
import { RAIL } from "../../tests/unit-support/protocol/envelope/test-fixtures";
import { UNPAID_ENDS } from "./engine-parts";

const autoPolicy = { policy: { origins: { [AGENT]: AUTO_BUDGET } } };
const elicitParams = (jws: string) => ({
  server: MCP_SERVER,
  call: SEARCH_CALL,
  params: { _meta: { "stipendex/quote": { stipendex: "quote/0.1", jws } } },
});

/** A price above the site's auto-approve threshold (0.10) and under its per-call maximum. */
async function pricey(h: Harness) {
  return stipendexHttpChallenge(h.receiver, {
    total: { amount: "0.2", currency: "USD" },
    rails: [{ ...RAIL, amount: "200000" }],
  });
}

/** The person declines UNPAID_ENDS.limit of the site's pricier requests, one after another. */
async function personDeclines(h: Harness): Promise<void> {
  for (let i = 0; i < UNPAID_ENDS.limit; i++) {
    const { challenge } = await pricey(h);
    const paid = h.engine.pay({ requestId: `d${i}`, challenge }, CALLER).catch((e: unknown) => e);
    await until(async () => (await h.approvals.pending()).length === 1);
    const [pending] = await h.approvals.pending();
    await h.approvals.decide({ approvalId: pending?.id ?? "", decision: "decline" });
    expect(await paid).toMatchObject({ code: "user-declined" });
  }
}

describe("the unpaid-request brake and elicitations", () => {
  it("does not turn away an elicitation the site's budget answers alone after the person declined 20 of its prices", async () => {
    const h = await makeHarness(autoPolicy);
    await personDeclines(h);
    // Automatic payments go on: HTTP ones...
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    await expect(h.engine.pay({ requestId: "auto", challenge }, CALLER)).resolves.toBeDefined();
    // ...and an elicitation the budget answers alone.
    const { jws } = await stipendexMcpChallenge(h.receiver);
    const answer = await h.engine.elicit(elicitParams(jws), CALLER).catch((e: unknown) => e);
    expect(answer).toMatchObject({ action: "accept" });
  });

  it("answers an elicitation asked again (already recorded) after the brake engaged", async () => {
    const h = await makeHarness(autoPolicy);
    const { jws } = await stipendexMcpChallenge(h.receiver);
    expect((await h.engine.elicit(elicitParams(jws), CALLER)).action).toBe("accept");
    const before = await h.db.payments.count();
    await personDeclines(h);
    // The server asks the same elicitation again (its answer was lost): no new history entry needed.
    const again = await h.engine.elicit(elicitParams(jws), CALLER).catch((e: unknown) => e);
    expect(again).toMatchObject({ action: "accept" });
    expect(await h.db.payments.count()).toBe(before + UNPAID_ENDS.limit);
  });
});
