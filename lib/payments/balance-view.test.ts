import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { BASE_SEPOLIA, type LocalChain, startLocalChain } from "../../demo/chain";
import { mintTo } from "../../tests/unit-support/chain/mint";
import {
  AGENT,
  AUTO_BUDGET,
  CALLER,
  makeHarness,
  signedStipendex,
  TEST_AUTO_BUDGET,
  until,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import { signReceipt } from "../protocol/envelope/receipt";
import { encodeBase64Json } from "../protocol/x402/wire";
import { advancePayment, recordSettlement } from "../wallet/ledger";
import { balanceRows, pendingAmounts, tokenKey } from "./balance-view";
import { fileReceipt } from "./receipts";

describe("balanceRows, against a local chain", () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain({ ...BASE_SEPOLIA, payers: 1 });
  }, 60_000);
  afterAll(() => chain?.stop());

  it("shows each enabled token's balance beside what signed payments may still take", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
    h.clock.ms = Date.now();
    await mintTo(chain, h.unlocked.address, 2_500_000n);
    await h.engine.pay({ requestId: "p", challenge: x402HttpChallenge(2) }, CALLER);
    const settings = await h.policy.settings();
    const rows = await balanceRows(
      {
        db: h.db,
        endpointFor: async (network) => (network === "eip155:84532" ? chain.rpcUrl : undefined),
      },
      h.unlocked.address,
      settings,
    );
    const sepolia = rows.find((row) => row.network === "eip155:84532");
    expect(sepolia).toMatchObject({
      networkName: "Base Sepolia",
      testnet: true,
      symbol: "USDC",
      currency: "test USD",
      decimals: 6,
      amount: "2500000",
      pending: "10000",
    });
    const elsewhere = rows.filter((row) => row.network !== "eip155:84532");
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const row of elsewhere) {
      expect(row).toMatchObject({ pending: "0", problem: `No RPC endpoint for ${row.network}` });
      expect(row.currency).toBe(row.testnet ? "test USD" : "USD");
      expect(row.amount).toBeUndefined();
    }
  });

  it("never pays automatically what the balance cannot cover: the window asks, flags it, shows before and after", async () => {
    // A chain of its own: the harnesses share one wallet key, funded by the test above.
    const chain = await startLocalChain({ ...BASE_SEPOLIA, payers: 1 });
    onTestFinished(() => chain.stop());
    const h = await makeHarness({
      policy: {
        origins: { [AGENT]: TEST_AUTO_BUDGET },
        rpcEndpoints: { "eip155:84532": chain.rpcUrl },
      },
    });
    h.clock.ms = Date.now();
    await mintTo(chain, h.unlocked.address, 3_000n);
    // The wallet has read the balance (a cold first read may take longer than a payment waits for it).
    expect(await h.balances.current("eip155:84532", chain.token.address, 5_000)).toMatchObject({
      available: 3_000n,
    });
    const paid = h.engine.pay({ requestId: "short", challenge: x402HttpChallenge(2) }, CALLER);
    paid.catch(() => undefined);
    await until(async () => (await h.approvals.pending()).length === 1);
    const [asked] = await h.approvals.pending();
    expect(asked?.warnings).toContain("insufficient-balance");
    expect(asked?.balance).toEqual({ available: "3000", after: "-7000" });
    await h.approvals.decide({ approvalId: asked?.id ?? "", decision: "decline" });
    await expect(paid).rejects.toMatchObject({ code: "user-declined" });
  });
});

describe("pendingAmounts", () => {
  const SEPOLIA_USDC = tokenKey("eip155:84532", "0x036CbD53842c5426634e7929541eC2318f3dCF7e");
  const TX = `0x${"ab".repeat(32)}` as const;

  /** An auto-approved x402 payment, its settle response `settle` filed as the page reported it. */
  async function paidWithSettleResponse(settle: Record<string, unknown>) {
    const h = await makeHarness({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
    const { paymentId } = await h.engine.pay(
      { requestId: "x", challenge: x402HttpChallenge(2) },
      CALLER,
    );
    const receipt = encodeBase64Json({ network: "eip155:84532", ...settle });
    await fileReceipt(h.receipts, { paymentId, status: 200, receipt }, AGENT);
    // x402 settle responses are claims (receipts.ts): the payment stays signed, its receipt kept.
    expect((await h.db.payments.get(paymentId))?.state).toBe("signed");
    return { h, paymentId };
  }

  it("takes an x402 payment whose settle response names its transaction at its word until the chain is asked", async () => {
    const { h, paymentId } = await paidWithSettleResponse({ success: true, transaction: TX });
    // An honest receiver's transfer is in the balance already: not taken from it twice.
    expect((await pendingAmounts(h.db)).get(SEPOLIA_USDC)).toBeUndefined();
    await recordSettlement(h.db, paymentId, {
      status: "unconfirmed",
      transaction: TX,
      checkedAt: 1,
    });
    expect((await pendingAmounts(h.db)).get(SEPOLIA_USDC)).toBe(10_000n);
  });

  it("keeps pending an x402 payment whose settle response names no transaction", async () => {
    const { h } = await paidWithSettleResponse({ success: true, transaction: "" });
    expect((await pendingAmounts(h.db)).get(SEPOLIA_USDC)).toBe(10_000n);
  });

  // envelope.md: an "accepted" Receipt is verified, its settlement still to come.
  it("keeps pending a payment whose Stipendex Receipt is only accepted, its transaction named", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { payment, claims } = await signedStipendex(h, "r");
    const key = tokenKey(payment.network, payment.asset);
    expect((await pendingAmounts(h.db)).get(key)).toBe(BigInt(payment.amount));
    const jws = await signReceipt({ ...claims, status: "accepted" }, h.receiver.key);
    const filed = await fileReceipt(
      h.receipts,
      { paymentId: payment.id, status: 200, receipt: jws },
      AGENT,
    );
    expect(filed).toEqual({ state: "signed" });
    expect((await pendingAmounts(h.db)).get(key)).toBe(BigInt(payment.amount));
  });

  it("holds back a payment settled on the receiver's word once the chain does not show it, until the chain confirms it", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
    const { paymentId } = await h.engine.pay(
      { requestId: "x", challenge: x402HttpChallenge(2) },
      CALLER,
    );
    expect((await pendingAmounts(h.db)).get(SEPOLIA_USDC)).toBe(10_000n);
    // An unsigned x402 settle response (a page can send one) settles it with nothing on chain yet.
    const receipt = JSON.stringify({ success: true, transaction: TX, network: "eip155:84532" });
    await advancePayment(h.db, paymentId, { state: "settled", receipt }, h.clock.ms);
    // Until the tracker asks the chain (at once), the receiver's word: an honest one's transfer
    // is in the balance already, and must not be taken from it twice.
    expect((await pendingAmounts(h.db)).get(SEPOLIA_USDC)).toBeUndefined();
    await recordSettlement(h.db, paymentId, {
      status: "unconfirmed",
      transaction: TX,
      checkedAt: 1,
    });
    expect((await pendingAmounts(h.db)).get(SEPOLIA_USDC)).toBe(10_000n);
    await recordSettlement(h.db, paymentId, {
      status: "confirmed",
      transaction: TX,
      blockNumber: "7",
      checkedAt: 2,
    });
    expect((await pendingAmounts(h.db)).get(SEPOLIA_USDC)).toBeUndefined();
  });
});
