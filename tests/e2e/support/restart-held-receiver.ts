import assert from "node:assert/strict";
import express from "express";
import type { LocalChain } from "../../../demo/chain";
import { type Listening, listen } from "../../../demo/listen";
import { PAYMENT_HEADER, stipendexHttpRouter } from "../../../demo/receiver/http";
import { createReceiverIdentity } from "../../../demo/receiver/identity";
import type { RailTemplate } from "../../../demo/receiver/rail";
import { StipendexReceiver } from "../../../demo/receiver/receiver";
import { type Demo, HTTP_PRICES, startDemo } from "../../../demo/server";

/** A paid retry the receiver has received and not answered yet. */
export interface HeldPayment {
  /** The Stipendex-Payment header (the Proof) exactly as it arrived. */
  proof: string;
  /** Lets the request through: the receiver settles, serves and signs its Receipt. */
  release(): void;
}

export interface HeldReceiver {
  /** e.g. http://127.0.0.1:41234; serves a blank page at "/" and the paid GET /api/search. */
  origin: string;
  /** When true, paid retries wait for `release()`; unpaid requests are never held. */
  holding: boolean;
  /** The next paid retry to arrive (start waiting before the call that sends it). */
  nextPaid(): Promise<HeldPayment>;
  /** How many paid retries arrived in all. */
  paidCount(): number;
  close(): Promise<void>;
}

/**
 * The demo's Stipendex HTTP receiver on its own origin, with a gate before
 * it: a test can hold the paid retry (after the wallet signed, before the
 * Receipt) for as long as it needs, e.g. to stop the wallet's worker.
 */
export async function startHeldReceiver(
  chain: LocalChain,
  rail: RailTemplate,
  price: bigint,
): Promise<HeldReceiver> {
  const app = express();
  const waiters: ((held: HeldPayment) => void)[] = [];
  const arrived: HeldPayment[] = [];
  let paid = 0;
  const receiverState = { holding: false };
  app.get("/", (_req, res) => {
    res.type("html").send("<!doctype html><title>held receiver</title><p>held receiver</p>");
  });
  app.use("/api/search", (req, _res, next) => {
    const proof = req.get(PAYMENT_HEADER);
    if (proof === undefined) return next();
    paid++;
    if (!receiverState.holding) return next();
    const held: HeldPayment = { proof, release: () => next() };
    const waiter = waiters.shift();
    if (waiter) waiter(held);
    else arrived.push(held);
  });
  const listening: Listening = await listen(app, 0);
  const receiver = new StipendexReceiver({
    identity: await createReceiverIdentity(listening.url),
    name: "Held test receiver",
    rail,
    client: chain.walletClient(chain.accounts.facilitator),
  });
  app.use(stipendexHttpRouter(receiver, price));
  return {
    origin: listening.url,
    get holding() {
      return receiverState.holding;
    },
    set holding(value: boolean) {
      receiverState.holding = value;
    },
    nextPaid: () => {
      const early = arrived.shift();
      return early ? Promise.resolve(early) : new Promise((resolve) => waiters.push(resolve));
    },
    paidCount: () => paid,
    close: () => listening.close(),
  };
}

/** The demo (its chain), a held receiver before it at the demo's Stipendex price, and the payer. */
export interface HeldDemo {
  demo: Demo;
  held: HeldReceiver;
  payer: { address: `0x${string}`; privateKey: `0x${string}` };
  /** The token transfers from the payer since `fromBlock`: one per payment collected. */
  transfersFromPayer(fromBlock: bigint): Promise<unknown[]>;
  stop(): Promise<void>;
}

export async function startHeldDemo(): Promise<HeldDemo> {
  const demo = await startDemo();
  const held = await startHeldReceiver(demo.chain, demo.rail, HTTP_PRICES.stipendex);
  const payer = demo.chain.accounts.payers[0];
  assert.ok(payer, "the demo chain has a payer");
  return {
    demo,
    held,
    payer,
    transfersFromPayer: (fromBlock) =>
      demo.chain.publicClient.getContractEvents({
        address: demo.chain.token.address,
        abi: demo.chain.token.abi,
        eventName: "Transfer",
        args: { from: payer.address },
        fromBlock,
      }),
    stop: async () => {
      await held.close();
      await demo.stop();
    },
  };
}
