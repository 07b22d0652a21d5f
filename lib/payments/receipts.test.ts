import { base64url } from "jose";
import { describe, expect, it } from "vitest";
import {
  AGENT,
  AUTO_BUDGET,
  CALLER,
  type Harness,
  makeHarness,
  RECEIPT_TX,
  RECEIVER,
  signedStipendex,
  TEST_AUTO_BUDGET,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import { makeReceiver } from "../../tests/unit-support/protocol/envelope/test-fixtures";
import { BASE_SEPOLIA_USDC } from "../../tests/unit-support/protocol/x402/test-fixtures";
import { AWAITS_UNLOCK } from "../db/settlement-due";
import { canonicalize, sha256Base64url } from "../protocol/canonical-json";
import { signEnvelope } from "../protocol/envelope/envelope-jwt";
import { toJsonForm } from "../protocol/envelope/json-form";
import { signReceipt } from "../protocol/envelope/receipt";
import { encodeBase64Json } from "../protocol/x402/wire";
import { STAYS_CHARGED } from "../wallet/ledger";
import type { DescriptorSource } from "./descriptors";
import { PaymentError } from "./errors";
import { paymentDetail } from "./history";
import { fileHeldReceipts, fileReceipt, type ReceiptDeps } from "./receipts";

const TX = RECEIPT_TX;
const HOUR = 3_600_000;

/** What the hook reports when the paid retry was refused: the token says the authorization was used. */
const refusedRetry = (paymentId: string) => ({
  paymentId,
  status: 200,
  receipt: null,
  error: { code: -32402, message: "authorization already used" },
});

function deps(h: Harness): ReceiptDeps {
  return {
    db: h.db,
    descriptors: h.descriptors,
    wallet: async () => ({
      walletId: h.unlocked.signingKey.walletId,
      address: h.unlocked.address,
    }),
    now: () => h.clock.ms,
  };
}

async function paidStipendex() {
  const h = await makeHarness({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
  return { h, ...(await signedStipendex(h, "r")) };
}

describe("fileReceipt, Stipendex", () => {
  // README: a claimed settlement the chain does not show is flagged, not trusted; the
  // Receipt is the receiver's word, so the payment reads settled once the chain shows it.
  it("keeps a valid Receipt (JSON form), the payment signed and due for its chain check at once", async () => {
    const { h, payment, claims } = await paidStipendex();
    const jws = await signReceipt(claims, h.receiver.key);
    const filed = await fileReceipt(
      deps(h),
      { paymentId: payment.id, status: 200, receipt: toJsonForm("receipt", jws) },
      AGENT,
    );
    expect(filed).toEqual({ state: "signed" });
    const stored = await h.db.payments.get(payment.id);
    expect(stored?.state).toBe("signed");
    expect(stored?.receipt).toBe(jws);
    expect(stored?.reason).toBeUndefined();
    expect(stored?.checkAt).toBe(h.clock.ms);
  });

  // The seed's HTTP binding writes `base64url(Receipt JWS)`; envelope.md reads it as the compact JWS.
  it.each([
    ["a header", (jws: string) => base64url.encode(jws)],
    [
      "an MCP _meta JSON form",
      (jws: string) => ({ stipendex: "receipt/0.1", jws: base64url.encode(jws) }),
    ],
  ])(
    "accepts a Receipt wrapped once more in base64url (%s), keeping the compact JWS",
    async (_where, wrap) => {
      const { h, payment, claims } = await paidStipendex();
      const jws = await signReceipt(claims, h.receiver.key);
      const filed = await fileReceipt(
        deps(h),
        { paymentId: payment.id, status: 200, receipt: wrap(jws) },
        AGENT,
      );
      expect(filed).toEqual({ state: "signed" });
      expect((await h.db.payments.get(payment.id))?.receipt).toBe(jws);
    },
  );

  it("refuses a wrapped Receipt whose signature does not verify, keeping it unwrapped", async () => {
    const { h, payment, claims } = await paidStipendex();
    const jws = await signReceipt(claims, h.receiver.key);
    const other = await signReceipt({ ...claims, jti: "rcpt-2" }, h.receiver.key);
    // This Receipt's claims under the other one's signature.
    const forged = `${jws.slice(0, jws.lastIndexOf("."))}${other.slice(other.lastIndexOf("."))}`;
    const filed = await fileReceipt(
      deps(h),
      { paymentId: payment.id, status: 200, receipt: base64url.encode(forged) },
      AGENT,
    );
    expect(filed).toEqual({ state: "failed" });
    const stored = await h.db.payments.get(payment.id);
    expect(stored?.reason).toMatch(/^Receipt rejected: .*signature/);
    expect(stored?.receipt).toBe(forged);
  });

  it("fails a payment whose Receipt is neither a compact JWS nor the base64url of one, saying what was wrong", async () => {
    const { h, payment } = await paidStipendex();
    const filed = await fileReceipt(
      deps(h),
      { paymentId: payment.id, status: 200, receipt: base64url.encode("not a receipt") },
      AGENT,
    );
    expect(filed).toEqual({ state: "failed" });
    expect((await h.db.payments.get(payment.id))?.reason).toBe(
      'Receipt rejected: Base64url that decodes to "not a receipt", which is not a compact JWS: Not three base64url segments joined by dots: "not a receipt"',
    );
  });

  it("checks the Receipt's resultHash against the result served: a match is accepted, a mismatch is kept as failed", async () => {
    const served = await sha256Base64url(canonicalize([{ type: "text", text: "results" }]));
    const { h, payment, claims } = await paidStipendex();
    const jws = await signReceipt({ ...claims, resultHash: served }, h.receiver.key);
    const filed = await fileReceipt(
      deps(h),
      { paymentId: payment.id, status: 200, receipt: jws, resultHash: served },
      AGENT,
    );
    expect(filed).toEqual({ state: "signed" });

    const other = await paidStipendex();
    const lying = await signReceipt({ ...other.claims, resultHash: served }, other.h.receiver.key);
    const otherServed = await sha256Base64url(canonicalize([{ type: "text", text: "other" }]));
    expect(
      await fileReceipt(
        deps(other.h),
        { paymentId: other.payment.id, status: 200, receipt: lying, resultHash: otherServed },
        AGENT,
      ),
    ).toEqual({ state: "failed" });
    const failed = await other.h.db.payments.get(other.payment.id);
    expect(failed?.reason).toBe(
      `Receipt rejected: the Receipt's resultHash ${served} is not the hash of the result served (${otherServed})`,
    );
    expect(failed?.receipt).toBe(lying);

    // The payment's detail says so of the Receipt itself, as of a wrong qh or ph (black-box review).
    const receiptIn = async (of: Harness, id: string) =>
      (await paymentDetail(of.db, of.registry, of.descriptors, id)).objects.find(
        (o) => o.kind === "receipt",
      );
    expect(await receiptIn(h, payment.id)).toMatchObject({ verified: true });
    const shown = await receiptIn(other.h, other.payment.id);
    expect(shown).toMatchObject({ verified: false });
    expect(shown?.problem).toBe(
      `the Receipt's resultHash ${served} is not the hash of the result served (${otherServed})`,
    );
  });

  it.each([
    ["names no transaction yet", false],
    ["names no settlement at all", true],
  ])("keeps an 'accepted' Receipt that %s, without settling", async (_how, bare) => {
    const { h, payment, claims } = await paidStipendex();
    const { settlement, ...rest } = claims;
    const accepted = bare
      ? { ...rest, status: "accepted" }
      : { ...rest, status: "accepted", settlement: { ...settlement, transaction: "" } };
    const jws = await signEnvelope(
      "receipt",
      accepted,
      { alg: h.receiver.key.alg, kid: h.receiver.key.kid },
      h.receiver.key.key,
    );
    const filed = await fileReceipt(
      deps(h),
      { paymentId: payment.id, status: 200, receipt: jws },
      AGENT,
    );
    expect(filed).toEqual({ state: "signed" });
    expect((await h.db.payments.get(payment.id))?.receipt).toBe(jws);
  });

  it.each([
    ["ph", { ph: "A".repeat(43) }, /ph/],
    ["qh", { qh: "B".repeat(43) }, /qh/],
  ] as const)(
    "fails a payment whose Receipt has the wrong %s, keeping the Receipt",
    async (_field, change, reason) => {
      const { h, payment, claims } = await paidStipendex();
      const jws = await signReceipt({ ...claims, ...change }, h.receiver.key);
      const filed = await fileReceipt(
        deps(h),
        { paymentId: payment.id, status: 200, receipt: jws },
        AGENT,
      );
      expect(filed).toEqual({ state: "failed" });
      const stored = await h.db.payments.get(payment.id);
      expect(stored?.receipt).toBe(jws);
      expect(stored?.reason).toMatch(/^Receipt rejected: /);
      expect(stored?.reason).toMatch(reason);
    },
  );

  it("fails a payment the retried call still refused: the server's words as said, plainly, still charged", async () => {
    const { h, payment } = await paidStipendex();
    const filed = await fileReceipt(deps(h), refusedRetry(payment.id), AGENT);
    expect(filed).toEqual({ state: "failed" });
    const failed = await h.db.payments.get(payment.id);
    expect(failed?.reason).toBe(
      `The receiver refused the payment: this authorization was already used or canceled. ${STAYS_CHARGED}`,
    );
    expect(failed?.receiverSaid).toBe("authorization already used");
    expect(failed?.charge).toBeDefined();
  });

  it("files a receipt as of the wallet's clock, not the machine's", async () => {
    const { h, payment } = await paidStipendex();
    h.clock.ms += 3_600_000;
    await fileReceipt(deps(h), refusedRetry(payment.id), AGENT);
    expect((await h.db.payments.get(payment.id))?.updatedAt).toBe(h.clock.ms);
  });

  it("answers another origin as if the payment did not exist", async () => {
    const { h, payment, claims } = await paidStipendex();
    const jws = await signReceipt(claims, h.receiver.key);
    await expect(
      fileReceipt(
        deps(h),
        { paymentId: payment.id, status: 200, receipt: jws },
        "https://evil.example",
      ),
    ).rejects.toMatchObject({ name: "PaymentError", code: "unknown-payment" });
    expect((await h.db.payments.get(payment.id))?.state).toBe("signed");
  });
});

describe("a paid retry that brought neither a receipt nor a refusal", () => {
  it.each([
    [
      { status: 0, unanswered: "no-response" },
      /gave no answer to the paid request: the connection failed/,
    ],
    [{ status: 200, unanswered: "not-an-answer" }, /answer to the paid call was not the result/],
    [{ status: 200, unanswered: "stream-ended" }, /stream ended before it sent the result/],
    [{ status: 0, unanswered: "not-sent" }, /never sent/],
    [
      { status: 0, unanswered: "given-up" },
      /given up by its caller after the paid request went out/,
    ],
    [
      { status: 0, unanswered: "redirected" },
      /answered the paid request with a redirect, which the wallet never follows with a payment/,
    ],
    [{ status: 500 }, /answered the paid request with HTTP 500 instead of the result/],
    [{ status: 502, unanswered: "not-an-answer" }, /with HTTP 502 instead/],
    [
      {
        status: 200,
        unanswered: "error-answer",
        answerError: { code: -32603, message: "Tool crashed" },
      },
      /answered the paid call with an error instead of the result that was paid for: Tool crashed \(JSON-RPC error -32603\)/,
    ],
  ] as const)(
    "keeps the payment signed and charged, saying what happened: %o",
    async (outcome, said) => {
      const { h, payment } = await paidStipendex();
      const filed = await fileReceipt(
        deps(h),
        { paymentId: payment.id, receipt: null, ...outcome },
        AGENT,
      );
      expect(filed).toEqual({ state: "signed" });
      const stored = await h.db.payments.get(payment.id);
      expect(stored?.state).toBe("signed");
      expect(stored?.reason).toMatch(said);
      expect(stored?.charge).toEqual(payment.charge);
    },
  );

  // Seed 004 settles before its tool runs: the call paid for may fail all the same.
  it("files a receipt that came with an error answer, and history says the call answered with the error", async () => {
    const { h, payment, claims } = await paidStipendex();
    const jws = await signReceipt(claims, h.receiver.key);
    const filed = await fileReceipt(
      deps(h),
      {
        paymentId: payment.id,
        status: 200,
        receipt: toJsonForm("receipt", jws),
        unanswered: "error-answer",
        answerError: { code: -32000, message: "Tool crashed" },
      },
      AGENT,
    );
    expect(filed).toEqual({ state: "signed" });
    const stored = await h.db.payments.get(payment.id);
    expect(stored?.receipt).toBe(jws);
    expect(stored?.reason).toMatch(
      /answered the paid call with an error instead of the result that was paid for: Tool crashed \(JSON-RPC error -32000\)/,
    );
  });

  it.each([
    ["without a receipt", null],
    ["with an empty receipt header (none, as x402's client reads it)", " "],
  ])("says nothing of an answer that came %s", async (_what, receipt) => {
    const { h, payment } = await paidStipendex();
    await fileReceipt(deps(h), { paymentId: payment.id, status: 200, receipt }, AGENT);
    const stored = await h.db.payments.get(payment.id);
    expect(stored?.state).toBe("signed");
    expect(stored?.reason).toBeUndefined();
    expect(stored?.receipt).toBeUndefined();
  });
});

describe("a Receipt signed with a key the cached descriptor does not list yet", () => {
  // envelope.md section 7: a wallet fetches the descriptor again once on an unknown kid.
  it("fetches the descriptor again, once, and accepts the rotated key", async () => {
    const { h, payment, claims } = await paidStipendex();
    const rotated = await makeReceiver(RECEIVER, "r2");
    const asked: (boolean | undefined)[] = [];
    const descriptors: DescriptorSource = {
      get: async (_receiverId, options) => {
        asked.push(options?.refresh);
        if (!options?.refresh) return h.receiver.descriptor;
        const keys = [...h.receiver.descriptor.keys.keys, ...rotated.descriptor.keys.keys];
        return { ...h.receiver.descriptor, keys: { keys } };
      },
    };
    const jws = await signReceipt(claims, rotated.key);
    const filed = await fileReceipt(
      { ...deps(h), descriptors },
      { paymentId: payment.id, status: 200, receipt: jws },
      AGENT,
    );
    expect(filed).toEqual({ state: "signed" });
    expect(asked).toEqual([undefined, true]);
  });

  it("refuses a Receipt whose key the fetched descriptor does not list either", async () => {
    const { h, payment, claims } = await paidStipendex();
    const stranger = await makeReceiver(RECEIVER, "r9");
    const jws = await signReceipt(claims, stranger.key);
    await fileReceipt(deps(h), { paymentId: payment.id, status: 200, receipt: jws }, AGENT);
    const stored = await h.db.payments.get(payment.id);
    expect(stored?.state).toBe("failed");
    expect(stored?.reason).toMatch(/^Receipt rejected: /);
  });
});

describe("receipts that arrive while the wallet is locked", () => {
  /** The deps of a wallet that is locked until `open` is set. */
  function lockable(h: Harness) {
    const state = { open: false };
    const unlocked = deps(h);
    return {
      state,
      deps: { ...unlocked, wallet: async () => (state.open ? unlocked.wallet() : undefined) },
    };
  }

  it("holds a Receipt as received, unchecked, and files it once the wallet is unlocked", async () => {
    const { h, payment, claims } = await paidStipendex();
    const jws = await signReceipt(claims, h.receiver.key);
    const wallet = lockable(h);
    expect(
      await fileReceipt(wallet.deps, { paymentId: payment.id, status: 200, receipt: jws }, AGENT),
    ).toEqual({ state: "signed" });
    const held = await h.db.payments.get(payment.id);
    expect(held?.heldReceipt).toEqual({ status: 200, receipt: jws, receivedAt: h.clock.ms });
    expect(held?.receipt).toBeUndefined();
    // Out of the settlement tracker's way until unlock: its subject is not checked yet.
    expect(held?.checkAt).toBe(AWAITS_UNLOCK);
    expect(await fileHeldReceipts(wallet.deps)).toBe(0);

    wallet.state.open = true;
    expect(await fileHeldReceipts(wallet.deps)).toBe(1);
    const filed = await h.db.payments.get(payment.id);
    expect(filed?.state).toBe("signed");
    expect(filed?.receipt).toBe(jws);
    expect(filed?.heldReceipt).toBeUndefined();
    expect(filed?.checkAt).toBeGreaterThanOrEqual(0);
    expect(await fileHeldReceipts(wallet.deps)).toBe(0);
  });

  it("checks a held Receipt's subject at unlock: one made out to another wallet fails", async () => {
    const { h, payment, claims } = await paidStipendex();
    const jws = await signReceipt(
      { ...claims, sub: `urn:ietf:params:oauth:jwk-thumbprint:sha-256:${"C".repeat(43)}` },
      h.receiver.key,
    );
    const wallet = lockable(h);
    await fileReceipt(wallet.deps, { paymentId: payment.id, status: 200, receipt: jws }, AGENT);
    expect((await h.db.payments.get(payment.id))?.state).toBe("signed");
    wallet.state.open = true;
    await fileHeldReceipts(wallet.deps);
    const filed = await h.db.payments.get(payment.id);
    expect(filed?.state).toBe("failed");
    expect(filed?.reason).toMatch(/^Receipt rejected: .*sub/);
    expect(filed?.heldReceipt).toBeUndefined();
  });

  it("checks a held Receipt against the result served, at unlock", async () => {
    const served = await sha256Base64url(canonicalize([{ type: "text", text: "results" }]));
    const { h, payment, claims } = await paidStipendex();
    const jws = await signReceipt({ ...claims, resultHash: served }, h.receiver.key);
    const wallet = lockable(h);
    const otherServed = await sha256Base64url(canonicalize([{ type: "text", text: "other" }]));
    await fileReceipt(
      wallet.deps,
      { paymentId: payment.id, status: 200, receipt: jws, resultHash: otherServed },
      AGENT,
    );
    wallet.state.open = true;
    await fileHeldReceipts(wallet.deps);
    expect((await h.db.payments.get(payment.id))?.reason).toContain(
      "is not the hash of the result served",
    );
  });

  // envelope §6 refuses a Receipt for what it says, not for how long the wallet stayed locked.
  it("accepts a valid Receipt that arrived while locked, however long the wallet stayed locked", async () => {
    const { h, payment, claims } = await paidStipendex();
    const jws = await signReceipt(claims, h.receiver.key);
    const wallet = lockable(h);
    await fileReceipt(wallet.deps, { paymentId: payment.id, status: 200, receipt: jws }, AGENT);
    h.clock.ms += 25 * HOUR;
    wallet.state.open = true;
    await fileHeldReceipts(wallet.deps);
    const filed = await h.db.payments.get(payment.id);
    expect(filed?.reason).toBeUndefined();
    expect(filed?.state).toBe("signed");
  });

  // An older version kept no arrival time; the payment's updatedAt is when the Receipt was held.
  it.each([
    ["accepts one that was fresh when held", 2, "signed", undefined],
    [
      "refuses one that was over a day old when held",
      25,
      "failed",
      expect.stringMatching(/^Receipt rejected: Receipt expired/),
    ],
  ])(
    "checks a Receipt held without its arrival time as of its payment's last change: %s",
    async (_case, hoursOld, state, reason) => {
      const { h, payment, claims } = await paidStipendex();
      const jws = await signReceipt(claims, h.receiver.key);
      const wallet = lockable(h);
      h.clock.ms += hoursOld * HOUR;
      await fileReceipt(wallet.deps, { paymentId: payment.id, status: 200, receipt: jws }, AGENT);
      await h.db.payments
        .where("id")
        .equals(payment.id)
        .modify((held) => {
          if (held.heldReceipt) delete held.heldReceipt.receivedAt;
        });
      h.clock.ms += 48 * HOUR;
      wallet.state.open = true;
      await fileHeldReceipts(wallet.deps);
      const filed = await h.db.payments.get(payment.id);
      expect(filed?.state).toBe(state);
      expect(filed?.reason).toEqual(reason);
    },
  );

  it("keeps a held Receipt held when the wallet locks again during the pass filing it", async () => {
    const { h, payment, claims } = await paidStipendex();
    const jws = await signReceipt(claims, h.receiver.key);
    const wallet = lockable(h);
    await fileReceipt(wallet.deps, { paymentId: payment.id, status: 200, receipt: jws }, AGENT);
    let asked = 0;
    const locksAgain = {
      ...wallet.deps,
      wallet: async () => (++asked === 1 ? deps(h).wallet() : undefined),
    };
    await fileHeldReceipts(locksAgain);
    const held = await h.db.payments.get(payment.id);
    expect(held?.heldReceipt).toMatchObject({ receipt: jws });
    expect(held?.checkAt).toBe(AWAITS_UNLOCK);
  });

  it("files the other held Receipts when filing one fails, and lets that one go on the next pass", async () => {
    const { h, payment: one, claims: oneClaims } = await paidStipendex();
    const { payment: other, claims: otherClaims } = await signedStipendex(h, "r2");
    // Filed in id order (both wait for unlock): the first one filed is the one that fails.
    const [bad, good] = [
      { payment: one, claims: oneClaims },
      { payment: other, claims: otherClaims },
    ].sort((a, b) => (a.payment.id < b.payment.id ? -1 : 1));
    if (!bad || !good) return expect.unreachable("two payments");
    const wallet = lockable(h);
    const anotherWallet = `urn:ietf:params:oauth:jwk-thumbprint:sha-256:${"C".repeat(43)}`;
    for (const [{ payment }, jws] of [
      [bad, await signReceipt({ ...bad.claims, sub: anotherWallet }, h.receiver.key)],
      [good, await signReceipt(good.claims, h.receiver.key)],
    ] as const) {
      await fileReceipt(wallet.deps, { paymentId: payment.id, status: 200, receipt: jws }, AGENT);
    }
    wallet.state.open = true;
    // While its receiver's descriptor is fetched, the page reports the bad one refused: it is
    // failed by the time its Receipt is rejected, and cannot be failed again.
    let reported = false;
    const descriptors: DescriptorSource = {
      get: async (receiverId, options) => {
        if (!reported) {
          reported = true;
          await fileReceipt(deps(h), refusedRetry(bad.payment.id), AGENT);
        }
        return h.descriptors.get(receiverId, options);
      },
    };
    await fileHeldReceipts({ ...wallet.deps, descriptors });
    expect(await h.db.payments.get(good.payment.id)).toMatchObject({ state: "signed" });
    expect((await h.db.payments.get(good.payment.id))?.heldReceipt).toBeUndefined();
    expect((await h.db.payments.get(bad.payment.id))?.state).toBe("failed");
    // The next pass once it is due again (its refusal made it due for the settlement tracker).
    h.clock.ms = (await h.db.payments.get(bad.payment.id))?.checkAt ?? 0;
    await fileHeldReceipts(wallet.deps);
    expect((await h.db.payments.get(bad.payment.id))?.heldReceipt).toBeUndefined();
  });

  it("files a refusal at once, locked or not: it names no wallet", async () => {
    const { h, payment } = await paidStipendex();
    const wallet = lockable(h);
    const filed = await fileReceipt(wallet.deps, refusedRetry(payment.id), AGENT);
    expect(filed).toEqual({ state: "failed" });
  });
});

describe("a Receipt whose receiver's descriptor cannot be fetched when it arrives", () => {
  /** The deps of a wallet whose receiver's descriptor cannot be had while `down` is set. */
  function flaky(h: Harness) {
    const state = { down: true, open: true };
    const unlocked = deps(h);
    const descriptors: DescriptorSource = {
      get: async (receiverId, options) => {
        if (state.down) {
          throw new PaymentError(
            "descriptor-unavailable",
            `The receiver's descriptor at ${receiverId} could not be used`,
          );
        }
        return h.descriptors.get(receiverId, options);
      },
    };
    return {
      state,
      deps: {
        ...unlocked,
        descriptors,
        wallet: async () => (state.open ? unlocked.wallet() : undefined),
      },
    };
  }

  /** A paid payment whose valid Receipt arrived while its receiver's descriptor could not be had. */
  async function arrivedWhileDown() {
    const { h, payment, claims } = await paidStipendex();
    const jws = await signReceipt(claims, h.receiver.key);
    const receiver = flaky(h);
    const arrived = h.clock.ms;
    const filed = await fileReceipt(
      receiver.deps,
      { paymentId: payment.id, status: 200, receipt: jws },
      AGENT,
    );
    return { h, payment, jws, receiver, arrived, filed };
  }

  it("keeps the payment signed and the Receipt held, and checks it once the descriptor answers", async () => {
    const { h, payment, jws, receiver, arrived, filed: answer } = await arrivedWhileDown();
    expect(answer).toEqual({ state: "signed" });
    const held = await h.db.payments.get(payment.id);
    expect(held?.reason).toBeUndefined();
    expect(held?.heldReceipt).toEqual({ status: 200, receipt: jws, receivedAt: arrived });
    // Due again in a while, for the next pass of the settlement schedule.
    expect(held?.checkAt).toBeGreaterThan(arrived);
    expect(await fileHeldReceipts(receiver.deps)).toBe(0);

    receiver.state.down = false;
    h.clock.ms = held?.checkAt ?? 0;
    expect(await fileHeldReceipts(receiver.deps)).toBe(1);
    const filed = await h.db.payments.get(payment.id);
    expect(filed?.state).toBe("signed");
    expect(filed?.receipt).toBe(jws);
    expect(filed?.heldReceipt).toBeUndefined();
  });

  it("keeps trying for a day after it arrived, then refuses the Receipt saying why, keeping it", async () => {
    const { h, payment, jws, receiver, arrived } = await arrivedWhileDown();
    let passes = 0;
    for (
      let held = await h.db.payments.get(payment.id);
      held?.heldReceipt;
      held = await h.db.payments.get(payment.id)
    ) {
      h.clock.ms = held.checkAt ?? 0;
      await fileHeldReceipts(receiver.deps);
      passes += 1;
      expect(h.clock.ms - arrived).toBeLessThanOrEqual(25 * HOUR);
    }
    expect(h.clock.ms - arrived).toBeGreaterThanOrEqual(24 * HOUR);
    // Asked less often the longer it has been down: not every minute for a day.
    expect(passes).toBeLessThan(50);
    const filed = await h.db.payments.get(payment.id);
    expect(filed?.state).toBe("failed");
    expect(filed?.reason).toBe(
      `Receipt rejected: The receiver's descriptor at ${RECEIVER} could not be used`,
    );
    expect(filed?.receipt).toBe(jws);
    expect(filed?.heldReceipt).toBeUndefined();
  });

  it("waits for unlock when it is due again while the wallet is locked", async () => {
    const { h, payment, receiver } = await arrivedWhileDown();
    receiver.state.open = false;
    h.clock.ms = (await h.db.payments.get(payment.id))?.checkAt ?? 0;
    expect(await fileHeldReceipts(receiver.deps)).toBe(0);
    // Out of the settlement tracker's way, which could settle it with its Receipt unchecked.
    expect((await h.db.payments.get(payment.id))?.checkAt).toBe(AWAITS_UNLOCK);

    receiver.state.open = true;
    receiver.state.down = false;
    h.clock.ms += 48 * HOUR;
    await fileHeldReceipts(receiver.deps);
    expect((await h.db.payments.get(payment.id))?.state).toBe("signed");
  });
});

describe("fileReceipt, x402", () => {
  async function paidX402() {
    const h = await makeHarness({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
    const answer = await h.engine.pay({ requestId: "x", challenge: x402HttpChallenge(2) }, CALLER);
    return { h, paymentId: answer.paymentId };
  }

  it("keeps a successful settle response as a claim the chain check is due for, the payment still signed", async () => {
    const { h, paymentId } = await paidX402();
    const settle = {
      success: true,
      transaction: TX,
      network: "eip155:84532",
      payer: h.unlocked.address,
    };
    const filed = await fileReceipt(
      deps(h),
      { paymentId, status: 200, receipt: encodeBase64Json(settle) },
      AGENT,
    );
    // Unsigned, so anything on the page could have written it, with any transaction.
    expect(filed).toEqual({ state: "signed" });
    const stored = await h.db.payments.get(paymentId);
    expect(JSON.parse(stored?.receipt ?? "")).toEqual(settle);
    expect(stored?.checkAt).toBe(h.clock.ms);
  });

  it("takes back that a paid call went unanswered when its receipt comes after all (a resumed stream)", async () => {
    const { h, paymentId } = await paidX402();
    const ended = { paymentId, status: 200, receipt: null, unanswered: "stream-ended" as const };
    await fileReceipt(deps(h), ended, AGENT);
    expect((await h.db.payments.get(paymentId))?.reason).toMatch(/stream ended/);
    const settle = { success: true, transaction: TX, network: "eip155:84532" };
    const receipt = { paymentId, status: 200, receipt: encodeBase64Json(settle) };
    expect(await fileReceipt(deps(h), receipt, AGENT)).toEqual({ state: "signed" });
    const stored = await h.db.payments.get(paymentId);
    expect(stored?.reason).toBeUndefined();
    expect(JSON.parse(stored?.receipt ?? "")).toEqual(settle);
  });

  it("takes back that a paid call went unanswered when its answer comes after all, without a receipt", async () => {
    const { h, paymentId } = await paidX402();
    const ended = { paymentId, status: 200, receipt: null, unanswered: "stream-ended" as const };
    await fileReceipt(deps(h), ended, AGENT);
    expect((await h.db.payments.get(paymentId))?.reason).toMatch(/stream ended/);
    const answered = { paymentId, status: 200, receipt: null, resultHash: "aGFzaA" };
    expect(await fileReceipt(deps(h), answered, AGENT)).toEqual({ state: "signed" });
    const stored = await h.db.payments.get(paymentId);
    expect(stored?.reason).toBeUndefined();
    expect(stored?.state).toBe("signed");
    expect(stored?.receipt).toBeUndefined();
  });

  it("files one receipt per payment: one sent while the first is filed changes nothing", async () => {
    const { h, paymentId } = await paidX402();
    const settle = { success: true, transaction: TX, network: "eip155:84532" };
    const refused = { success: false, errorReason: "insufficient_funds", network: "eip155:84532" };
    const report = (receipt: unknown) =>
      fileReceipt(deps(h), { paymentId, status: 200, receipt: encodeBase64Json(receipt) }, AGENT);
    expect(await Promise.all([report(settle), report(refused)])).toEqual([
      { state: "signed" },
      { state: "signed" },
    ]);
    expect(JSON.parse((await h.db.payments.get(paymentId))?.receipt ?? "")).toEqual(settle);
  });

  it("files one receipt per payment: what the page reports after it changes nothing", async () => {
    const { h, paymentId } = await paidX402();
    const settle = { success: true, transaction: TX, network: "eip155:84532" };
    const report = (receipt: unknown) =>
      fileReceipt(deps(h), { paymentId, status: 200, receipt: encodeBase64Json(receipt) }, AGENT);
    expect(await report(settle)).toEqual({ state: "signed" });
    const refused = { success: false, errorReason: "insufficient_funds", network: "eip155:84532" };
    expect(await report(refused)).toEqual({ state: "signed" });
    const refusal = { code: -32402, message: "Payment refused" };
    expect(
      await fileReceipt(deps(h), { paymentId, status: 402, receipt: null, error: refusal }, AGENT),
    ).toEqual({ state: "signed" });
    expect(JSON.parse((await h.db.payments.get(paymentId))?.receipt ?? "")).toEqual(settle);
  });

  it("fails a settle response that names another payer, keeping it", async () => {
    const { h, paymentId } = await paidX402();
    const other = "0x000000000000000000000000000000000000dEaD";
    const settle = { success: true, transaction: TX, network: "eip155:84532", payer: other };
    const filed = await fileReceipt(
      deps(h),
      { paymentId, status: 200, receipt: encodeBase64Json(settle) },
      AGENT,
    );
    expect(filed).toEqual({ state: "failed" });
    const stored = await h.db.payments.get(paymentId);
    expect(stored?.reason).toBe(
      `Receipt rejected: the settle response names payer ${other}, not this wallet (${h.unlocked.address})`,
    );
  });

  it("takes a settle response naming the network as x402 v1 does", async () => {
    const { h, paymentId } = await paidX402();
    const settle = { success: true, transaction: TX, network: "base-sepolia", amount: "10000" };
    const filed = await fileReceipt(
      deps(h),
      { paymentId, status: 200, receipt: encodeBase64Json(settle) },
      AGENT,
    );
    expect(filed).toEqual({ state: "signed" });
  });

  it.each([
    [
      "another network",
      { network: "eip155:1" },
      'the settle response names network "eip155:1", not the payment\'s (eip155:84532)',
    ],
    [
      "a network nobody knows",
      { network: "moonbase" },
      'the settle response names network "moonbase", not the payment\'s (eip155:84532)',
    ],
    [
      "another amount",
      { amount: "1" },
      "the settle response names amount 1, not the payment's (10000)",
    ],
  ])("fails a settle response that names %s, keeping it", async (_what, change, reason) => {
    const { h, paymentId } = await paidX402();
    const settle = { success: true, transaction: TX, network: "eip155:84532", ...change };
    const filed = await fileReceipt(
      deps(h),
      { paymentId, status: 200, receipt: encodeBase64Json(settle) },
      AGENT,
    );
    expect(filed).toEqual({ state: "failed" });
    expect((await h.db.payments.get(paymentId))?.reason).toBe(`Receipt rejected: ${reason}`);
  });

  it("keeps a payment signed, to be looked at on chain, when its settle response names no transaction", async () => {
    const { h, paymentId } = await paidX402();
    const settle = { success: true, transaction: "", network: "eip155:84532" };
    h.clock.ms += 1_000;
    const filed = await fileReceipt(
      deps(h),
      { paymentId, status: 200, receipt: encodeBase64Json(settle) },
      AGENT,
    );
    expect(filed).toEqual({ state: "signed" });
    const stored = await h.db.payments.get(paymentId);
    expect(stored?.state).toBe("signed");
    expect(stored?.checkAt).toBe(h.clock.ms);
    expect(JSON.parse(stored?.receipt ?? "")).toEqual(settle);
  });

  it("fails on an unsuccessful settle response, saying why", async () => {
    const { h, paymentId } = await paidX402();
    const filed = await fileReceipt(
      deps(h),
      {
        paymentId,
        status: 402,
        receipt: {
          success: false,
          transaction: "",
          network: "eip155:84532",
          errorReason: "insufficient_funds",
        },
      },
      AGENT,
    );
    expect(filed).toEqual({ state: "failed" });
    const stored = await h.db.payments.get(paymentId);
    expect(stored?.reason).toContain("insufficient_funds");
    expect(stored?.reason).not.toContain("No payment");
    expect(stored?.receipt).toContain("insufficient_funds");
    expect(stored?.asset).toBe(BASE_SEPOLIA_USDC);
  });
});
