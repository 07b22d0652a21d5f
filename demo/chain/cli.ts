import { StipendexError } from "../../lib/errors";
import { CLI_USAGE, parseCliArgs } from "./cli-args";
import { startLocalChain } from "./index";
import { describeLocalChain } from "./summary";

/** `npx tsx demo/chain/cli.ts [--port N] [--chain-id N] [--payers N] [--base-sepolia]` */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(CLI_USAGE);
    return;
  }
  const chain = await startLocalChain(parseCliArgs(argv));
  const { deployer, facilitator, payee, payers } = chain.accounts;
  const balances = new Map(
    await Promise.all(
      [deployer, facilitator, payee, ...payers].map(
        async (account) => [account.address, await chain.balanceOf(account.address)] as const,
      ),
    ),
  );
  console.log(describeLocalChain(chain, balances));
  console.log("Running. Ctrl-C to stop.");

  // The chain's own handles are unref'd so that tests cannot hang on it; hold the CLI open here.
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  const shutdown = async () => {
    clearInterval(keepAlive);
    await chain.stop();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof StipendexError ? `${error.code}: ${error.message}` : error);
  process.exit(1);
});
