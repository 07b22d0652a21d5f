import {
  type Account,
  type Address,
  type Chain,
  getAddress,
  type Hex,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient,
} from "viem";
import type { ContractArtifact } from "./compile";
import { SetupTransactionRevertedError } from "./errors";
import { eip3009TokenAbi } from "./token-abi";

export interface TokenSetup {
  publicClient: PublicClient<Transport, Chain>;
  testClient: TestClient<"anvil", Transport, Chain>;
  /** Deploys (or initializes) the token and becomes its minter. */
  deployer: WalletClient<Transport, Chain, Account>;
  artifact: ContractArtifact;
  /** Put the runtime code here with anvil_setCode instead of deploying (e.g. a real USDC address). */
  address?: Address;
  name: string;
  symbol: string;
  version: string;
  mints: readonly { to: Address; amount: bigint }[];
}

/** Puts an initialized EIP3009Token on the chain, mints the given amounts, and returns its address. */
export async function setUpToken(setup: TokenSetup): Promise<Address> {
  const { publicClient, deployer, artifact } = setup;
  const confirm = async (step: string, hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new SetupTransactionRevertedError(step, hash);
    return receipt;
  };

  let address = setup.address && getAddress(setup.address);
  if (address === undefined) {
    const receipt = await confirm(
      "deploy",
      await deployer.deployContract({ abi: eip3009TokenAbi, bytecode: artifact.bytecode }),
    );
    // viem reports the created address in lower case; hand out the checksummed form.
    address = receipt.contractAddress ? getAddress(receipt.contractAddress) : undefined;
    if (address === undefined)
      throw new SetupTransactionRevertedError("deploy", receipt.transactionHash);
  } else {
    await setup.testClient.setCode({ address, bytecode: artifact.deployedBytecode });
  }

  await confirm(
    "initialize",
    await deployer.writeContract({
      address,
      abi: eip3009TokenAbi,
      functionName: "initialize",
      args: [setup.name, setup.symbol, setup.version, deployer.account.address],
    }),
  );
  for (const { to, amount } of setup.mints) {
    await confirm(
      `mint ${amount} to ${to}`,
      await deployer.writeContract({
        address,
        abi: eip3009TokenAbi,
        functionName: "mint",
        args: [to, amount],
      }),
    );
  }
  return address;
}
