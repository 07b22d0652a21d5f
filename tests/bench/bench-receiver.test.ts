import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDescriptor } from "../../lib/protocol/envelope/descriptor";
import { readJsonForm } from "../../lib/protocol/envelope/json-form";
import { verifyQuote } from "../../lib/protocol/envelope/quote";
import {
  BENCH_PRICE,
  type BenchReceiver,
  gapDurations,
  pairedGapDifferences,
  receiverClock,
  startBenchReceiver,
} from "./bench-receiver";

describe("gapDurations", () => {
  it("keeps only gaps with both ends, as arrival minus sending", () => {
    const gaps = new Map([
      ["a", { sentAt: 10, arrivedAt: 12.5 }],
      ["b", { sentAt: 20 }],
      ["c", { arrivedAt: 5 }],
      ["d", { sentAt: 1, arrivedAt: 4 }],
    ]);
    expect(gapDurations(gaps)).toEqual([2.5, 3]);
  });
});

describe("pairedGapDifferences", () => {
  it("subtracts the same id's gap, skipping ids incomplete on either side", () => {
    const paid = new Map([
      ["1", { sentAt: 0, arrivedAt: 9 }],
      ["2", { sentAt: 0, arrivedAt: 8 }],
      ["3", { sentAt: 0 }],
    ]);
    const plain = new Map([
      ["1", { sentAt: 0, arrivedAt: 3 }],
      ["3", { sentAt: 0, arrivedAt: 1 }],
    ]);
    expect(pairedGapDifferences(paid, plain)).toEqual([6]);
  });
});

describe("startBenchReceiver", () => {
  let receiver: BenchReceiver;
  beforeAll(async () => {
    receiver = await startBenchReceiver();
  });
  afterAll(() => receiver.close());

  it("answers 402 with a Quote for the exact URL that verifies under its descriptor", async () => {
    const url = `${receiver.origin}/paid?id=q1`;
    const response = await fetch(url);
    expect(response.status).toBe(402);
    const descriptor = checkDescriptor(
      await (await fetch(`${receiver.origin}/.well-known/stipendex.json`)).json(),
      receiver.origin,
    );
    const body = (await response.json()) as { quote: unknown };
    const quote = await verifyQuote(readJsonForm(body.quote, "quote"), {
      descriptor,
      request: { kind: "http", method: "GET", url },
    });
    expect(quote.claims.iss).toBe(receiver.origin);
    expect(quote.claims.rails[0]?.amount).toBe(BENCH_PRICE.toString());
  });

  it("times the 402 sent to the paid retry arrived, and serves the retry", async () => {
    const url = `${receiver.origin}/paid?id=p1`;
    expect((await fetch(url)).status).toBe(402);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const retry = await fetch(url, { headers: { "Stipendex-Payment": "proof" } });
    expect(retry.status).toBe(200);
    const [gap] = gapDurations(new Map([["p1", receiver.paid.get("p1") ?? {}]]));
    expect(gap).toBeGreaterThanOrEqual(15);
  });

  it("stamps just before and after writing each 402, on the receiver's clock", async () => {
    const before = performance.now();
    expect((await fetch(`${receiver.origin}/paid?id=w1`)).status).toBe(402);
    const writing = receiver.paid.get("w1")?.writing;
    expect(writing?.before).toBeGreaterThanOrEqual(before);
    expect(writing?.after).toBeGreaterThanOrEqual(writing?.before ?? Number.POSITIVE_INFINITY);
    expect(writing?.after).toBeLessThanOrEqual(performance.now());
  });

  it("answers /clock with its clock as epoch milliseconds, readable from any origin", async () => {
    const sentAt = receiverClock(performance.now());
    const response = await fetch(`${receiver.origin}/clock`);
    const receivedAt = receiverClock(performance.now());
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const clock = Number(await response.text());
    expect(clock).toBeGreaterThanOrEqual(sentAt);
    expect(clock).toBeLessThanOrEqual(receivedAt);
    expect(Math.abs(clock - Date.now())).toBeLessThan(1_000);
  });

  it("times the first plain answer sent to the second plain request arrived", async () => {
    await fetch(`${receiver.origin}/plain?id=n1&step=1`);
    await fetch(`${receiver.origin}/plain?id=n1&step=2`);
    const gap = receiver.plain.get("n1");
    expect(gap?.sentAt).toBeDefined();
    expect(gap?.arrivedAt).toBeGreaterThanOrEqual(gap?.sentAt ?? Number.POSITIVE_INFINITY);
  });
});
