import { ProtocolError, quote } from "../errors";
import type { Caip2 } from "../offer";

export interface Network {
  caip2: Caip2;
  chainId: number;
  /** x402 v1 names that mean this chain; the first is the one shown. */
  names: readonly string[];
  /** The chain's name as people write it ("Base Sepolia"). */
  label: string;
  testnet: boolean;
}

function network(
  chainId: number,
  names: readonly string[],
  label: string,
  testnet: boolean,
): Network {
  return { caip2: `eip155:${chainId}`, chainId, names, label, testnet };
}

/** EVM chains the wallet pays on. The local chain is for the demo and end-to-end tests. */
export const NETWORKS: readonly Network[] = [
  network(8453, ["base"], "Base", false),
  network(84532, ["base-sepolia"], "Base Sepolia", true),
  network(1, ["ethereum"], "Ethereum", false),
  network(137, ["polygon"], "Polygon", false),
  network(42161, ["arbitrum"], "Arbitrum One", false),
  network(43114, ["avalanche"], "Avalanche C-Chain", false),
  network(43113, ["avalanche-fuji"], "Avalanche Fuji", true),
  network(196, ["x-layer"], "X Layer", false),
  network(31337, ["localhost", "anvil"], "Local chain", true),
];

/** The network with this CAIP-2 id among those the wallet pays on; undefined for another. */
export function knownNetwork(caip2: string): Network | undefined {
  return NETWORKS.find((n) => n.caip2 === caip2);
}

/** A network as people read it: its label, or its CAIP-2 id when the wallet does not know it. */
export function networkLabel(caip2: string): string {
  return knownNetwork(caip2)?.label ?? caip2;
}

const CAIP2_EVM = /^eip155:([1-9][0-9]{0,15})$/;

/** Find a network by CAIP-2 id ("eip155:8453") or x402 v1 name ("base"). */
export function resolveNetwork(id: unknown): Network {
  if (typeof id === "string") {
    const chainId = CAIP2_EVM.exec(id)?.[1];
    const found = NETWORKS.find((n) =>
      chainId === undefined ? n.names.includes(id) : n.chainId === Number(chainId),
    );
    if (found) return found;
  }
  throw new ProtocolError(
    "unknown-network",
    `unknown network ${quote(id)}: not an EVM chain this wallet knows`,
  );
}
