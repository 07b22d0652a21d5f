import { describe, expect, it } from "vitest";
import { devAccounts } from "./dev-accounts";
import { describeLocalChain } from "./summary";
import { eip3009TokenAbi } from "./token-abi";

describe("describeLocalChain", () => {
  it("lists RPC URL, token, and every account with its key and token balance", () => {
    const accounts = devAccounts(2);
    const [first, second] = accounts.payers;
    const text = describeLocalChain(
      {
        rpcUrl: "http://127.0.0.1:8545",
        chainId: 84532,
        token: {
          address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
          name: "USDC",
          version: "2",
          symbol: "USDC",
          decimals: 6,
          abi: eip3009TokenAbi,
        },
        accounts,
      },
      new Map([
        [first?.address ?? "", 1_000_000_000n],
        [second?.address ?? "", 1_500_001n],
      ]),
    );
    const lines = text.split("\n");
    expect(lines[0]).toBe("RPC URL     http://127.0.0.1:8545");
    expect(lines[1]).toBe("Chain id    84532");
    expect(lines[2]).toContain(
      '0x036CbD53842c5426634e7929541eC2318f3dCF7e  USDC (EIP-712 name "USDC", version "2"',
    );
    expect(text).toContain(
      `payee        ${accounts.payee.address}  key ${accounts.payee.privateKey}\n`,
    );
    expect(text).toContain(`payer 1      ${first?.address}  key ${first?.privateKey}  1000 USDC`);
    expect(text).toContain(
      `payer 2      ${second?.address}  key ${second?.privateKey}  1.500001 USDC`,
    );
    expect(lines).toHaveLength(9);
  });
});
