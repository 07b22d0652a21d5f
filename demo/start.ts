import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { chromium } from "playwright-core";
import { formatUnits } from "viem";
import { BASE_SEPOLIA, startLocalChain } from "./chain";
import { curlLine, paidEndpoints } from "./paid-endpoints";
import { startDemo } from "./server";
import { DEFAULT_PORTS, parseStartOptions } from "./start-options";

const CHROMIUM = "/usr/lib/chromium/chromium";
const DEMO_BLOCK_SECONDS = 2;
const EXTENSION_DIR = resolve(import.meta.dirname, "..", ".output", "chrome-mv3");
/** The `stipendex-proxy` bin as `npm ci` builds it (npm run build:proxy). */
const PROXY_BIN = resolve(import.meta.dirname, "..", "dist", "stipendex-proxy.mjs");

/** The demo chain's endpoint as a build names it (see lib/chain/rpc-endpoints.ts). */
function demoRpc(chainPort: number): string {
  return `eip155:${BASE_SEPOLIA.chainId}=http://127.0.0.1:${chainPort}`;
}

async function main(): Promise<void> {
  const options = parseStartOptions(process.argv.slice(2), process.env);
  if (options.build) {
    console.log("Building the extension (npx wxt build)…");
    // The wallet this builds reads balances and settlements from the demo chain, with no setting to make.
    const built = spawnSync("npx", ["wxt", "build"], {
      stdio: "inherit",
      env: { ...process.env, WXT_DEMO_RPC: demoRpc(options.ports.chain) },
    });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  // Blocks every two seconds, as on Base: the chain's clock moves, so expired authorizations are seen.
  const chain = await startLocalChain({
    ...BASE_SEPOLIA,
    port: options.ports.chain,
    blockTimeSeconds: DEMO_BLOCK_SECONDS,
  });
  const demo = await startDemo({ chain, ports: options.ports });
  console.log("\nStipendex demo is running (127.0.0.1 only):");
  const listed = [
    ...Object.entries(demo.urls),
    ["chain", `${demo.chain.rpcUrl} (chain id ${demo.chain.chainId})`],
  ];
  const width = Math.max(...listed.map(([name]) => name.length));
  for (const [name, url] of listed) console.log(`  ${name.padEnd(width)}  ${url}`);
  console.log(
    `Default ports: ${JSON.stringify(DEFAULT_PORTS)}; change with --port-<name> N or DEMO_PORT_<NAME>.`,
  );
  console.log("\nPaid endpoints (each answers 402 with its price until a wallet pays):");
  for (const endpoint of paidEndpoints(demo.urls)) {
    console.log(
      `  ${endpoint.name}, ${formatUnits(endpoint.price, 6)} USDC\n    ${curlLine(endpoint)}`,
    );
  }
  console.log(
    `\nDesktop MCP hosts (Claude Desktop, VS Code, …) pay through the same wallet with stipendex-proxy:\n` +
      `  once         npx stipendex-proxy install   (then restart the browser)\n` +
      `  MCP server   ${process.execPath} ${PROXY_BIN} ${demo.urls.mcpJson}\n` +
      `(the command and arguments a host's configuration names; see "Desktop agents" in README.md)`,
  );
  const payer = demo.chain.accounts.payers[0];
  if (payer) {
    console.log(
      `\nA funded test account on this local chain (a public anvil dev key — never use it on a real network):\n` +
        `  address      ${payer.address}\n  private key  ${payer.privateKey}\n` +
        `In the wallet's onboarding choose "a key I have" and paste the private key to pay from it.`,
    );
  }

  let close: () => Promise<void> = async () => {};
  if (options.browser && process.env.DISPLAY && existsSync(CHROMIUM)) {
    const context = await chromium.launchPersistentContext("", {
      executablePath: CHROMIUM,
      headless: false,
      args: [`--disable-extensions-except=${EXTENSION_DIR}`, `--load-extension=${EXTENSION_DIR}`],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(demo.urls.agent);
    console.log("Chromium is open on the agent page with the wallet loaded.");
    close = () => context.close();
  } else {
    console.log(
      options.browser
        ? `\nNo display ($DISPLAY is not set) or no ${CHROMIUM}: not opening a browser.`
        : "\n--no-browser: not opening a browser.",
    );
    console.log(
      `To try it by hand: open chrome://extensions, enable Developer mode, "Load unpacked" ${EXTENSION_DIR}, then visit ${demo.urls.agent}`,
    );
  }
  console.log("Ctrl-C stops everything.");

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping…");
    await close().catch(() => undefined);
    await demo.stop();
    await chain.stop();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
