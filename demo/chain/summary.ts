import { formatUnits } from "viem";
import type { LocalChain } from "./index";

/** Human-readable description of a running local chain, for the CLI and demo logs. */
export function describeLocalChain(
  chain: Pick<LocalChain, "rpcUrl" | "chainId" | "token" | "accounts">,
  balances: ReadonlyMap<string, bigint>,
): string {
  const { token, accounts } = chain;
  const line = (role: string, account: { address: string; privateKey: string }) => {
    const balance = balances.get(account.address);
    const held =
      balance === undefined ? "" : `  ${formatUnits(balance, token.decimals)} ${token.symbol}`;
    return `  ${role.padEnd(12)} ${account.address}  key ${account.privateKey}${held}`;
  };
  return [
    `RPC URL     ${chain.rpcUrl}`,
    `Chain id    ${chain.chainId}`,
    `Token       ${token.address}  ${token.symbol} (EIP-712 name "${token.name}", version "${token.version}", ${token.decimals} decimals)`,
    "Accounts (anvil dev keys, public: never use on a real network)",
    line("deployer", accounts.deployer),
    line("facilitator", accounts.facilitator),
    line("payee", accounts.payee),
    ...accounts.payers.map((payer, i) => line(`payer ${i + 1}`, payer)),
  ].join("\n");
}
