import { parseArgs } from "node:util";
import { InvalidCliArgumentError } from "./errors";
import { BASE_SEPOLIA, type LocalChainOptions } from "./index";

export const CLI_USAGE = `Usage: npx tsx demo/chain/cli.ts [--port N] [--chain-id N] [--payers N] [--base-sepolia]
  --port N         JSON-RPC port on 127.0.0.1 (default: a free port)
  --chain-id N     chain id (default 31337)
  --payers N       funded payer accounts, 0..7 (default 3)
  --base-sepolia   chain 84532 with the token at Base Sepolia USDC's address, name "USDC", version "2"`;

function integer(
  flag: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new InvalidCliArgumentError(flag, value, `an integer from ${min} to ${max}`);
  }
  return n;
}

/** Reads the chain CLI's flags into startLocalChain options; unknown flags are errors. */
export function parseCliArgs(argv: readonly string[]): LocalChainOptions {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (cause) {
    throw new InvalidCliArgumentError(
      "arguments",
      argv.join(" "),
      `${CLI_USAGE}\n(${String(cause)})`,
    );
  }
  const port = integer("--port", values.port, 0, 65535);
  const chainId = integer("--chain-id", values["chain-id"], 1, Number.MAX_SAFE_INTEGER);
  const payers = integer("--payers", values.payers, 0, 7);
  if (values["base-sepolia"]) {
    if (chainId !== undefined && chainId !== BASE_SEPOLIA.chainId) {
      throw new InvalidCliArgumentError(
        "--chain-id",
        String(chainId),
        `${BASE_SEPOLIA.chainId} with --base-sepolia`,
      );
    }
    return { ...BASE_SEPOLIA, port, payers };
  }
  return { port, chainId, payers };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: "string" },
      "chain-id": { type: "string" },
      payers: { type: "string" },
      "base-sepolia": { type: "boolean" },
    },
  });
}
