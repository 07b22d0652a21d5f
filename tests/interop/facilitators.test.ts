import { type Chain, createWalletClient, http, publicActions, type Transport } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import { describe, expect, it } from "vitest";
import { type DevAccount, devAccounts } from "../../demo/chain/dev-accounts";
import { type FacilitatorChain, facilitatorClient, v1Signer, v2Facilitator } from "./facilitators";

// Nothing listens here: these checks must not touch a chain (the interop tests do).
const transport: Transport = http("http://127.0.0.1:9");
// Widened as demo/chain's clients are, which are built for any chain.
const base: Chain = baseSepolia;
const chain: FacilitatorChain = {
  chainId: baseSepolia.id,
  accounts: devAccounts(0),
  walletClient: (account: DevAccount) =>
    createWalletClient({
      account: privateKeyToAccount(account.privateKey),
      chain: base,
      transport,
    }).extend(publicActions),
};

describe("facilitatorClient", () => {
  it("acts as demo/chain's facilitator account and can read as well as write", () => {
    const client = facilitatorClient(chain);
    expect(client.account.address).toBe(chain.accounts.facilitator.address);
    expect(typeof client.readContract).toBe("function");
    expect(typeof client.writeContract).toBe("function");
    expect(typeof client.waitForTransactionReceipt).toBe("function");
  });
});

describe("v1Signer", () => {
  it("is the facilitator's client, for x402 1.2's verify and settle", () => {
    expect(v1Signer(chain)).toMatchObject({
      account: { address: chain.accounts.facilitator.address },
    });
  });
});

describe("v2Facilitator", () => {
  it("offers x402 v2 exact on the chain's CAIP-2 network, signing as the facilitator account", () => {
    const supported = v2Facilitator(chain).getSupported();
    // registerExactEvmScheme also registers v1 exact on every v1 network name it knows.
    const v2Kinds = supported.kinds.filter((kind) => kind.x402Version === 2);
    expect(v2Kinds).toEqual([{ x402Version: 2, scheme: "exact", network: "eip155:84532" }]);
    expect(supported.kinds).toContainEqual({
      x402Version: 1,
      scheme: "exact",
      network: "base-sepolia",
    });
    expect(Object.values(supported.signers).flat()).toContain(chain.accounts.facilitator.address);
  });
});
