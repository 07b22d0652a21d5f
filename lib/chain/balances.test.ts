import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA, type LocalChain, startLocalChain } from "../../demo/chain";
import type { Address } from "../protocol/offer";
import { readBalances } from "./balances";

describe("readBalances, against a local chain", () => {
  let chain: LocalChain;
  beforeAll(async () => {
    chain = await startLocalChain({ ...BASE_SEPOLIA, payers: 1 });
  }, 60_000);
  afterAll(() => chain?.stop());

  const usdc = () => ({
    network: "eip155:84532" as const,
    asset: chain.token.address,
    symbol: "USDC",
    decimals: 6,
  });

  it("reads each token's balance of the owner, in the order asked", async () => {
    const payer = chain.accounts.payers[0];
    if (!payer) return expect.unreachable("no funded payer");
    const stranger: Address = "0x000000000000000000000000000000000000dEaD";
    const balances = await readBalances(
      payer.address,
      [usdc(), { ...usdc(), network: "eip155:1" }],
      (network) => (network === "eip155:84532" ? chain.rpcUrl : undefined),
      { now: () => 42 },
    );
    expect(balances[0]).toMatchObject({ amount: await chain.balanceOf(payer.address), readAt: 42 });
    expect(balances[1]).toMatchObject({
      network: "eip155:1",
      problem: "No RPC endpoint for eip155:1",
    });
    const [none] = await readBalances(stranger, [usdc()], () => chain.rpcUrl);
    expect(none?.amount).toBe(0n);
  });

  it("says in words why a balance could not be read: no contract there, or no node", async () => {
    const payer = chain.accounts.payers[0];
    if (!payer) return expect.unreachable("no funded payer");
    const noContract = {
      ...usdc(),
      asset: "0x0000000000000000000000000000000000000001" as Address,
    };
    const [notAToken] = await readBalances(payer.address, [noContract], () => chain.rpcUrl);
    expect(notAToken?.amount).toBeUndefined();
    expect(notAToken).toMatchObject({
      problem: expect.stringMatching(/^Could not read the balance from 127\.0\.0\.1:\d+: /),
    });
    const [offline] = await readBalances(payer.address, [usdc()], () => "http://127.0.0.1:9/");
    expect(offline).toMatchObject({
      problem: expect.stringMatching(/^Could not read the balance from 127\.0\.0\.1:9: /),
    });
  });

  it("gives up on a node that never answers after the time it is given, saying so", async () => {
    const payer = chain.accounts.payers[0];
    if (!payer) return expect.unreachable("no funded payer");
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    if (address === null || typeof address === "string") return expect.unreachable("no port");
    try {
      const started = Date.now();
      const [stuck, answered] = await readBalances(
        payer.address,
        [usdc(), { ...usdc(), network: "eip155:8453" }],
        (network) =>
          network === "eip155:84532" ? `http://127.0.0.1:${address.port}/` : chain.rpcUrl,
        { timeoutMs: 300 },
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(stuck).toMatchObject({
        problem: expect.stringMatching(/^Could not read the balance from 127\.0\.0\.1:\d+: /),
      });
      expect(answered?.amount).toBe(await chain.balanceOf(payer.address));
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
  });
});
