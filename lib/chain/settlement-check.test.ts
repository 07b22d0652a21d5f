import { createServer } from "node:http";
import { type Hex, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA, type LocalChain, startLocalChain } from "../../demo/chain";
import { settleAuthorization } from "../../demo/receiver/settle";
import { usdcOption } from "../../tests/unit-support/payments/offers";
import { signTransferWithAuthorization } from "../protocol/rails/eip3009";
import { authorizationFate, FINAL_DEPTH_WITHOUT_TAG } from "./authorization-use";
import { checkSettlement, type SignedTransfer } from "./settlement-check";

describe("checkSettlement and authorizationFate, against a local chain", () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain({ ...BASE_SEPOLIA, payers: 1 });
  }, 60_000);
  afterAll(() => chain?.stop());

  async function signed(value: bigint, nowSeconds = Math.floor(Date.now() / 1000)) {
    const payer = chain.accounts.payers[0];
    if (!payer) throw new Error("no funded payer");
    const option = usdcOption({
      asset: chain.token.address,
      payTo: chain.accounts.payee.address,
      amount: value,
    });
    const payment = await signTransferWithAuthorization(
      privateKeyToAccount(payer.privateKey),
      option,
      { now: nowSeconds },
    );
    const transfer: SignedTransfer = {
      token: chain.token.address,
      from: payer.address,
      to: chain.accounts.payee.address,
      value,
      nonce: payment.authorization.nonce as Hex,
    };
    const validBefore = BigInt(payment.authorization.validBefore);
    return { payment, transfer, validBefore };
  }

  it("checks a settlement as this payment, and no other", async () => {
    const { payment, transfer } = await signed(2_500n);
    const facilitator = chain.walletClient(chain.accounts.facilitator).extend(publicActions);
    const { transaction } = await settleAuthorization(facilitator, chain.token.address, payment);
    expect(await checkSettlement(chain.rpcUrl, transaction, transfer)).toMatchObject({
      kind: "confirmed",
    });
    // The same transaction is not another payment's, nor this one for another amount or payee.
    const other = await signed(2_500n);
    expect(await checkSettlement(chain.rpcUrl, transaction, other.transfer)).toMatchObject({
      kind: "mismatch",
      reason: expect.stringContaining("did not use this payment's authorization"),
    });
    expect(
      await checkSettlement(chain.rpcUrl, transaction, { ...transfer, value: 2_501n }),
    ).toMatchObject({ kind: "mismatch", reason: expect.stringContaining("did not move 2501") });
  });

  it("reports a transaction the chain does not know, rather than trusting the claim", async () => {
    const { transfer } = await signed(1n);
    const made: Hex = `0x${"ab".repeat(32)}`;
    expect(await checkSettlement(chain.rpcUrl, made, transfer)).toEqual({
      kind: "unknown",
      reason: `No transaction ${made} on this chain`,
    });
  });

  it("tells an open authorization from a used one (with its transaction) and one expired unused", async () => {
    const open = await signed(700n);
    expect(
      await authorizationFate(chain.rpcUrl, {
        ...open.transfer,
        validBefore: open.validBefore,
        chainId: BASE_SEPOLIA.chainId,
      }),
    ).toEqual({
      kind: "open",
      chainTime: (await chain.publicClient.getBlock({ blockTag: "finalized" })).timestamp,
    });

    const facilitator = chain.walletClient(chain.accounts.facilitator).extend(publicActions);
    const { transaction } = await settleAuthorization(
      facilitator,
      chain.token.address,
      open.payment,
    );
    expect(
      await authorizationFate(chain.rpcUrl, {
        ...open.transfer,
        validBefore: open.validBefore,
        chainId: BASE_SEPOLIA.chainId,
      }),
    ).toEqual({ kind: "used", transaction });

    // Signed an hour ago with a minute to live: the chain's clock is past it, the nonce unused.
    const late = await signed(700n, Math.floor(Date.now() / 1000) - 3600);
    expect(
      await authorizationFate(chain.rpcUrl, {
        ...late.transfer,
        validBefore: late.validBefore,
        chainId: BASE_SEPOLIA.chainId,
      }),
    ).toMatchObject({ kind: "expired-unused" });
  });

  // Last: it moves the chain's clock an hour on.
  it("calls an authorization expired unused only once a finalized block is past it, as a reorganization cannot undo that", async () => {
    const { transfer, validBefore } = await signed(700n);
    const fate = () =>
      authorizationFate(chain.rpcUrl, { ...transfer, validBefore, chainId: BASE_SEPOLIA.chainId });
    await chain.testClient.increaseTime({ seconds: 3_600 });
    await chain.testClient.mine({ blocks: 1 });
    // The latest block is past validBefore, but a reorganization could still replace it.
    const latest = await chain.publicClient.getBlock();
    const finalized = await chain.publicClient.getBlock({ blockTag: "finalized" });
    expect(latest.timestamp).toBeGreaterThanOrEqual(validBefore);
    expect(finalized.timestamp).toBeLessThan(validBefore);
    expect(await fate()).toEqual({ kind: "open", chainTime: finalized.timestamp });
    // The local chain finalizes two blocks behind its head.
    await chain.testClient.mine({ blocks: 2 });
    expect(await fate()).toEqual({
      kind: "expired-unused",
      blockNumber: await chain.publicClient.getBlockNumber({ cacheTime: 0 }),
    });
  });

  type Request = { id: number; method: string; params?: unknown[] };

  /**
   * A node on 127.0.0.1 in front of the local chain: what `answer` replies to
   * (a JSON-RPC error) it answers itself, the rest it passes on.
   */
  async function nodeBefore(answer: (request: Request) => Promise<object | undefined>) {
    const server = createServer(async (incoming, outgoing) => {
      let body = "";
      for await (const chunk of incoming) body += chunk;
      const request = JSON.parse(body) as Request;
      const error = await answer(request);
      const reply = error
        ? JSON.stringify({ jsonrpc: "2.0", id: request.id, error })
        : await (
            await fetch(chain.rpcUrl, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body,
            })
          ).text();
      outgoing.writeHead(200, { "content-type": "application/json" }).end(reply);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    return {
      url: `http://127.0.0.1:${address.port}/`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  /** Signed by the chain's clock, which earlier tests moved on: a minute to live. */
  async function signedNow(value: bigint) {
    const { timestamp } = await chain.publicClient.getBlock({ blockTag: "latest" });
    const { transfer, validBefore } = await signed(value, Number(timestamp));
    return { ...transfer, validBefore, chainId: BASE_SEPOLIA.chainId };
  }

  it("on a node that names no finalized block, takes one far enough below the head as final", async () => {
    const node = await nodeBefore(async ({ method, params }) =>
      method === "eth_getBlockByNumber" && params?.[0] === "finalized"
        ? { code: -32602, message: "invalid block tag: finalized" }
        : undefined,
    );
    try {
      // Deep enough that the block taken as final is not the first one.
      await chain.testClient.mine({ blocks: Number(FINAL_DEPTH_WITHOUT_TAG) });
      const transfer = await signedNow(700n);
      await chain.testClient.increaseTime({ seconds: 3_600 });
      await chain.testClient.mine({ blocks: 3 });
      // Past it at the finalized block, but this node does not say so: not yet final enough.
      const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
      const shallow = await chain.publicClient.getBlock({
        blockNumber: head - FINAL_DEPTH_WITHOUT_TAG,
      });
      expect(await authorizationFate(node.url, transfer)).toEqual({
        kind: "open",
        chainTime: shallow.timestamp,
      });
      await chain.testClient.mine({ blocks: Number(FINAL_DEPTH_WITHOUT_TAG) });
      expect(await authorizationFate(node.url, transfer)).toMatchObject({
        kind: "expired-unused",
      });
    } finally {
      await node.close();
    }
  });

  it("reads the nonce at the head, on a node that keeps no state as old as its finalized block", async () => {
    // Not an archive: a call at any block but the head is refused, as past a pruned node's state.
    const node = await nodeBefore(async ({ method, params }) => {
      if (method !== "eth_call" || params?.[1] === "latest") return undefined;
      const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
      return BigInt(String(params?.[1])) < head
        ? { code: -32000, message: "missing trie node" }
        : undefined;
    });
    try {
      const transfer = await signedNow(700n);
      await chain.testClient.increaseTime({ seconds: 3_600 });
      await chain.testClient.mine({ blocks: 3 });
      expect(await authorizationFate(node.url, transfer)).toMatchObject({
        kind: "expired-unused",
      });
    } finally {
      await node.close();
    }
  });
});
