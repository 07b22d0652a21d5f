import { describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import {
  AGENT,
  AUTO_BUDGET,
  CALLER,
  makeHarness,
  RECEIVER,
  type SeedFields,
  seedPayment,
  stipendexHttpChallenge,
  TEST_AUTO_BUDGET,
  x402HttpChallenge,
} from "../../tests/unit-support/payments/test-support";
import { PAY_TO } from "../../tests/unit-support/protocol/x402/test-fixtures";
import { openWalletDb } from "../db/schema";
import type { PaymentFilter } from "../messages";
import { createRegistry } from "../protocol/rails/registry";
import { encodeBase64Json } from "../protocol/x402/wire";
import { randomId } from "../random-id";
import { displayAmount, exportPayments, listPayments, paymentDetail, toRow } from "./history";
import { fileReceipt } from "./receipts";

const registry = createRegistry();
const A = "https://a.example";
const B = "https://b.example";
const R1 = "https://r1.example";
const R2 = "https://r2.example";
const TX = `0x${"cd".repeat(32)}`;

const SEEDS: [string, SeedFields][] = [
  ["p1", { createdAt: 1000 }],
  ["p2", { createdAt: 2000, receiver: R2, state: "declined", reason: 'He said "no", twice' }],
  [
    "p3",
    {
      createdAt: 3000,
      origin: B,
      receipt: JSON.stringify({ success: true, transaction: TX, network: "eip155:84532" }),
    },
  ],
  [
    "p4",
    {
      createdAt: 4000,
      origin: B,
      receiver: R2,
      state: "refused",
      reason: '=HYPERLINK("http://x")',
    },
  ],
  ["p5", { createdAt: 5000, state: "failed", reason: "+1, then -1" }],
];

/** The seeded payments; `names` maps the ledger's ids back to p1…p5. */
async function seeded() {
  const db = openWalletDb(`history-${randomId()}`);
  const names = new Map<string, string>();
  for (const [name, fields] of SEEDS) {
    const payment = await seedPayment(db, { state: "signed", ...fields });
    names.set(payment.id, name);
  }
  const where = vi.spyOn(db.payments, "where");
  const named = (id: string) => names.get(id) ?? id;
  return { db, where, named };
}

describe("listPayments", () => {
  it.each<[string, PaymentFilter, string, string[]]>([
    ["nothing", {}, "createdAt", ["p5", "p4", "p3", "p2", "p1"]],
    ["an origin", { origin: A }, "[origin+createdAt]", ["p5", "p2", "p1"]],
    ["an origin and a state", { origin: A, state: "signed" }, "[origin+createdAt]", ["p1"]],
    ["an origin and a receiver", { origin: B, receiver: R2 }, "[origin+createdAt]", ["p4"]],
    ["a receiver and a state", { receiver: R2, state: "declined" }, "[receiver+createdAt]", ["p2"]],
    ["a state", { state: "signed" }, "[state+createdAt]", ["p3", "p1"]],
    [
      "an origin and a time span",
      { origin: A, from: 1500, to: 5000 },
      "[origin+createdAt]",
      ["p5", "p2"],
    ],
    ["a time span", { from: 2000, to: 3000 }, "createdAt", ["p3", "p2"]],
    ["text", { text: "  TWICE " }, "createdAt", ["p2"]],
    ["text and a state", { state: "failed", text: "then" }, "[state+createdAt]", ["p5"]],
  ])("filters by %s through the right index, newest first", async (_what, filter, index, ids) => {
    const { db, where, named } = await seeded();
    const { rows, total } = await listPayments(db, registry, filter, 0, 100);
    expect(rows.map((r) => named(r.id))).toEqual(ids);
    expect(total).toBe(ids.length);
    expect([...new Set(where.mock.calls.map((call) => call[0]))]).toEqual([index]);
  });

  it("lists oldest first when asked, through the same index", async () => {
    const { db, named } = await seeded();
    const { rows } = await listPayments(db, registry, { origin: A }, 0, 100, "oldest");
    expect(rows.map((r) => named(r.id))).toEqual(["p1", "p2", "p5"]);
  });

  it("pages with offset and limit while counting everything", async () => {
    const { db, named } = await seeded();
    const { rows, total } = await listPayments(db, registry, {}, 1, 2);
    expect(rows.map((r) => named(r.id))).toEqual(["p4", "p3"]);
    expect(total).toBe(5);
  });
});

describe("toRow and displayAmount", () => {
  it("shows an exact amount with the network's name", async () => {
    const { db } = await seeded();
    const [p5] = await db.payments.filter((p) => p.state === "failed").toArray();
    if (!p5) return expect.unreachable("p5 missing");
    const row = toRow(registry, p5);
    expect(row).toMatchObject({ what: "http://127.0.0.1:4021/weather", reason: "+1, then -1" });
    expect(row.amount).toEqual({
      atomic: "10000",
      decimals: 6,
      symbol: "USDC",
      formatted: "0.01",
      network: "eip155:84532",
      networkName: "Base Sepolia",
      testnet: true,
    });
  });

  // Black-box review: a payment whose receiver claimed a transaction the chain does not have read
  // "settled" in the history; only its detail said the chain did not confirm it.
  it("says beside a settled payment that the chain does not confirm the settlement its receiver claimed", async () => {
    const { db } = await seeded();
    const [p5] = await db.payments.filter((p) => p.state === "failed").toArray();
    if (!p5) return expect.unreachable("p5 missing");
    const settled = { ...p5, state: "settled" as const, reason: undefined };
    const problem = "No transaction 0xabab on this chain";
    const unconfirmed = { status: "unconfirmed" as const, problem, checkedAt: 5 };
    expect(toRow(registry, { ...settled, settlement: unconfirmed }).reason).toBe(
      `Not confirmed on chain: ${problem}.`,
    );
    const mismatch = { status: "mismatch" as const, problem: "it reverted", checkedAt: 5 };
    expect(
      toRow(registry, { ...settled, reason: "No result came.", settlement: mismatch }).reason,
    ).toBe("No result came. The claimed settlement is not this payment: it reverted.");
    const confirmed = { status: "confirmed" as const, checkedAt: 5 };
    expect(toRow(registry, { ...settled, settlement: confirmed })).not.toHaveProperty("reason");
  });

  it("shows a network the registry no longer knows by its id", () => {
    const amount = displayAmount(registry, {
      amount: "1",
      decimals: 6,
      symbol: "X",
      network: "eip155:424242",
    });
    expect(amount).toMatchObject({ networkName: "eip155:424242", testnet: false });
  });
});

describe("exportPayments", () => {
  it("writes RFC 4180 CSV with quotes doubled and formula-looking cells defused", async () => {
    const { db, named } = await seeded();
    const { content, mimeType, filename } = await exportPayments(db, registry, {}, "csv");
    expect(mimeType).toBe("text/csv");
    expect(filename).toMatch(/^stipendex-payments-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = content.split("\r\n");
    expect(lines[0]).toBe(
      "id,time,state,origin,receiver,what,amount,symbol,atomic,decimals,network,payTo,transaction,settlement,reason,describedTool",
    );
    expect(lines.at(-1)).toBe("");
    const line = (name: string) =>
      (lines.find((l) => named(l.split(",")[0] ?? "") === name) ?? "").replace(/^[^,]*/, name);
    expect(line("p2").endsWith(`,"He said ""no"", twice",`)).toBe(true);
    expect(line("p4").endsWith(`,"'=HYPERLINK(""http://x"")",`)).toBe(true);
    expect(line("p5").endsWith(`,"'+1, then -1",`)).toBe(true);
    expect(line("p3")).toBe(
      `p3,1970-01-01T00:00:03.000Z,signed,${B},${R1},http://127.0.0.1:4021/weather,0.01,USDC,10000,6,eip155:84532,${PAY_TO},${TX},,,`,
    );
  });

  it("keeps the CSV machine-readable in any UI language: dot decimals, no grouping", async () => {
    // The screens write "1.234,5" in German; a file for a spreadsheet or script must not.
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
    const db = openWalletDb(`history-${randomId()}`);
    await seedPayment(db, { createdAt: 1000, amount: "1234500000" });
    const { content } = await exportPayments(db, registry, {}, "csv");
    expect(content.split("\r\n")[1]?.split(",").slice(6, 10)).toEqual([
      "1234.5",
      "USDC",
      "1234500000",
      "6",
    ]);
    vi.restoreAllMocks();
  });

  it("exports the filtered payments as JSON with their transaction", async () => {
    const { db, named } = await seeded();
    const { content } = await exportPayments(db, registry, { origin: B }, "json");
    const rows = JSON.parse(content) as { id: string; transaction: string | null; payTo: string }[];
    expect(rows.map((r) => [named(r.id), r.transaction])).toEqual([
      ["p4", null],
      ["p3", TX],
    ]);
    expect(rows[0]?.payTo).toBe(PAY_TO);
  });

  // The detail shows the settlement the chain check found: the export says the same.
  it("exports the settlement the chain check found, and what it found", async () => {
    const { db, named } = await seeded();
    const found = `0x${"ab".repeat(32)}` as const;
    const p4 = (await db.payments.toArray()).find((p) => named(p.id) === "p4");
    await db.payments.update(p4?.id ?? "", {
      settlement: { status: "confirmed", transaction: found, checkedAt: 5 },
    });
    const { content } = await exportPayments(db, registry, { origin: B }, "json");
    const rows = JSON.parse(content) as { id: string; transaction: string; settlement: string }[];
    expect(rows.map((r) => [named(r.id), r.transaction, r.settlement])).toEqual([
      ["p4", found, "confirmed"],
      ["p3", TX, null],
    ]);
  });
});

describe("a seed-004 payment's described tool", () => {
  it("is found by search, listed, exported and shown in the detail, beside the price's own address", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    if (challenge.transport !== "http") throw new Error("expected an HTTP price");
    const call = { tool: "verify_agent", arguments: { agent: "a-1" } };
    const { paymentId } = await h.engine.pay(
      { requestId: "t", challenge: { ...challenge, call } },
      CALLER,
    );
    const found = await listPayments(h.db, h.registry, { text: "VERIFY_AGENT" }, 0, 10);
    expect(found.rows.map((row) => [row.id, row.what, row.describedTool])).toEqual([
      [paymentId, challenge.url, "verify_agent"],
    ]);
    const detail = await paymentDetail(h.db, h.registry, h.descriptors, paymentId);
    expect(detail.resource).toEqual({
      kind: "http",
      method: challenge.method,
      url: challenge.url,
      call: { tool: "verify_agent" },
    });
    const csv = (await exportPayments(h.db, h.registry, {}, "csv")).content.split("\r\n");
    expect(csv[0]?.split(",").at(-1)).toBe("describedTool");
    expect(csv[1]?.split(",").at(-1)).toBe("verify_agent");
    const json = JSON.parse((await exportPayments(h.db, h.registry, {}, "json")).content);
    expect(json[0]?.describedTool).toBe("verify_agent");
  });
});

describe("paymentDetail", () => {
  it("decodes a Stipendex payment's objects and checks each signature again", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const { paymentId } = await h.engine.pay({ requestId: "d", challenge }, CALLER);
    const detail = await paymentDetail(h.db, h.registry, h.descriptors, paymentId);
    expect(detail.objects.map((o) => [o.kind, o.verified, o.problem])).toEqual([
      ["quote", true, undefined],
      ["confirmation", true, undefined],
      ["proof", true, undefined],
    ]);
    expect(detail.origin).toBe(AGENT);
  });

  it("shows an x402 settle response as unsigned, neither verified nor failed: the chain check tells", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
    const answer = await h.engine.pay({ requestId: "s", challenge: x402HttpChallenge(2) }, CALLER);
    const settle = { success: true, transaction: TX, network: "eip155:84532" };
    const receipt = { paymentId: answer.paymentId, status: 200, receipt: encodeBase64Json(settle) };
    await fileReceipt(h.receipts, receipt, AGENT);
    const detail = await paymentDetail(h.db, h.registry, h.descriptors, answer.paymentId);
    expect(detail.objects.find((o) => o.kind === "x402-settlement")).toEqual({
      kind: "x402-settlement",
      claims: settle,
      verified: false,
      unsigned: true,
    });
  });

  // A receiver that changed its keys since: its old Quotes are not forgeries, and the wallet
  // checked each when it paid it. They read "signature does not verify", in red.
  it("says an object signed with a key its receiver no longer lists cannot be checked now, not that it fails", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const { paymentId } = await h.engine.pay({ requestId: "k", challenge }, CALLER);
    const current = await h.descriptors.get(RECEIVER);
    const rotated = {
      ...current,
      keys: { keys: current.keys.keys.map((key) => ({ ...key, kid: `${key.kid}-next` })) },
    };
    const detail = await paymentDetail(h.db, h.registry, { get: async () => rotated }, paymentId);
    expect(detail.objects.map((o) => [o.kind, o.verified, o.keyNoLongerListed])).toEqual([
      ["quote", false, true],
      ["confirmation", true, undefined],
      ["proof", false, true],
    ]);
  });

  it("flags a tampered Confirmation", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const { paymentId } = await h.engine.pay({ requestId: "t", challenge }, CALLER);
    const payment = await h.db.payments.get(paymentId);
    const [head, body, signature] = (payment?.confirmation ?? "").split(".");
    const flipped = `${signature?.startsWith("A") ? "B" : "A"}${signature?.slice(1)}`;
    await h.db.payments.update(paymentId, { confirmation: `${head}.${body}.${flipped}` });
    const detail = await paymentDetail(h.db, h.registry, h.descriptors, paymentId);
    const confirmation = detail.objects.find((o) => o.kind === "confirmation");
    expect(confirmation?.verified).toBe(false);
    expect(confirmation?.problem).toBeTruthy();
  });

  it("shows a receipt that was no JWS as received, with why it could not be read", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: AUTO_BUDGET } } });
    const { challenge } = await stipendexHttpChallenge(h.receiver);
    const { paymentId } = await h.engine.pay({ requestId: "n", challenge }, CALLER);
    const receipt = { paymentId, status: 200, receipt: "not-a-receipt" };
    expect(await fileReceipt(h.receipts, receipt, AGENT)).toEqual({ state: "failed" });
    const verified = async () =>
      (await paymentDetail(h.db, h.registry, h.descriptors, paymentId)).objects.map((o) =>
        o.kind === "receipt" ? o : [o.kind, o.verified],
      );
    expect(await verified()).toEqual([
      ["quote", true],
      ["confirmation", true],
      ["proof", true],
      expect.objectContaining({
        verified: false,
        claims: { raw: "not-a-receipt" },
        problem: expect.stringMatching(/^not a compact JWS: /),
      }),
    ]);
    // Nor does a stored Proof that is no JWS stop the page from opening.
    await h.db.payments.update(paymentId, { proof: "not-a-proof" });
    expect(await verified()).toEqual([
      ["quote", true],
      ["confirmation", true],
      ["proof", false],
      expect.objectContaining({ verified: false }),
    ]);
  });

  it("shows an x402 payment as its payload, and refuses an unknown id", async () => {
    const h = await makeHarness({ policy: { origins: { [AGENT]: TEST_AUTO_BUDGET } } });
    const { paymentId } = await h.engine.pay(
      { requestId: "x", challenge: x402HttpChallenge(1) },
      CALLER,
    );
    const detail = await paymentDetail(h.db, h.registry, h.descriptors, paymentId);
    expect(detail.objects.map((o) => o.kind)).toEqual(["confirmation", "x402-payment"]);
    expect(detail.objects[0]?.verified).toBe(true);
    await expect(paymentDetail(h.db, h.registry, h.descriptors, "nope")).rejects.toMatchObject({
      name: "PaymentError",
      code: "unknown-payment",
    });
  });
});
