import express from "express";
import { publicActions } from "viem";
import { agentApp } from "./agent/app";
import { BASE_SEPOLIA, type LocalChain, startLocalChain } from "./chain";
import { type Listening, listen } from "./listen";
import { mcpRouter } from "./mcp/http";
import { SEED_402_PATH, seed402Router } from "./mcp/seed-402";
import { PAYWALLED_PAGE_PATH } from "./paywalled-article";
import { cors } from "./receiver/cors";
import { stipendexHttpRouter, stipendexPaywalledPageRouter } from "./receiver/http";
import { createReceiverIdentity } from "./receiver/identity";
import type { RailTemplate } from "./receiver/rail";
import { StipendexReceiver } from "./receiver/receiver";
import { v1FacilitatorApp } from "./x402/facilitator-v1";
import { inProcessV2Facilitator } from "./x402/facilitator-v2";
import { paywalledPageRouter, paywalledPageV1Router } from "./x402/paywalled-page";
import { v2ResourceServer } from "./x402/resource-server-v2";
import { x402V1Router } from "./x402/server-v1";
import { x402V2Router } from "./x402/server-v2";

export interface DemoPorts {
  /** Stipendex HTTP API, descriptor and MCP server. */
  stipendex?: number;
  x402v1?: number;
  x402v2?: number;
  facilitator?: number;
  agent?: number;
  /** The local chain's JSON-RPC (anvil). */
  chain?: number;
}

export interface DemoUrls {
  stipendex: string;
  x402v1: string;
  x402v2: string;
  facilitator: string;
  agent: string;
  mcpJson: string;
  mcpSse: string;
  /** An MCP endpoint that closes each call's stream after priming: the client resumes it by GET. */
  mcpPoll: string;
  /** An MCP server that answers a paid call with HTTP 402, fields as seed 004 prints them. */
  mcp402: string;
  /** A page behind the official x402 v2 middleware's paywall (402 to a browser until paid). */
  paywalledPage: string;
  /** The same page behind the official x402 v1 middleware's paywall (no price in a header). */
  paywalledPageV1: string;
  /** The same page sold by the Stipendex receiver (402 with a Quote until paid). */
  paywalledPageStipendex: string;
}

export interface Demo {
  urls: DemoUrls;
  chain: LocalChain;
  rail: RailTemplate;
  stop(): Promise<void>;
}

/** Prices of the HTTP APIs in atomic units of the 6-decimal token. */
export const HTTP_PRICES = {
  stipendex: 5_000n,
  x402v1: 4_000n,
  x402v2: 6_000n,
  /** The seed-004-shaped MCP server's verify_agent (an HTTP 402 on its JSON-RPC POST). */
  seed402: 7_000n,
  /** The x402 v2 paywalled page. */
  paywalledPage: 3_000n,
  /** The x402 v1 paywalled page. */
  paywalledPageV1: 3_500n,
  /** The Stipendex paywalled page. */
  paywalledPageStipendex: 2_500n,
} as const;

/**
 * Starts everything the demo and the end-to-end tests need: the local chain (chain id 84532,
 * token at Base Sepolia USDC's address, unless one is passed in), the Stipendex receiver with its
 * MCP server, the x402 v1/v2 servers with their facilitators, and the agent page. 127.0.0.1 only.
 */
export async function startDemo(
  options: { chain?: LocalChain; ports?: DemoPorts } = {},
): Promise<Demo> {
  const ports = options.ports ?? {};
  const chain =
    options.chain ??
    (await startLocalChain({ ...BASE_SEPOLIA, ...(ports.chain ? { port: ports.chain } : {}) }));
  const started: Listening[] = [];
  const stop = async () => {
    await Promise.all(started.map((s) => s.close()));
    if (!options.chain) await chain.stop();
  };
  try {
    const client = chain.walletClient(chain.accounts.facilitator).extend(publicActions);
    const rail: RailTemplate = {
      network: `eip155:${chain.chainId}`,
      chainId: chain.chainId,
      asset: chain.token.address,
      decimals: chain.token.decimals,
      symbol: chain.token.symbol,
      payTo: chain.accounts.payee.address,
      maxTimeoutSeconds: 60,
      eip712: { name: chain.token.name, version: chain.token.version },
    };

    const facilitatorApp = v1FacilitatorApp(client);
    const facilitator = await listen(facilitatorApp, ports.facilitator ?? 0);
    started.push(facilitator);

    const x402Server = v2ResourceServer(inProcessV2Facilitator(client, rail.network));
    await x402Server.initialize();

    const stipendexApp = express();
    stipendexApp.use(cors);
    const stipendex = await listen(stipendexApp, ports.stipendex ?? 0);
    started.push(stipendex);
    const receiver = new StipendexReceiver({
      identity: await createReceiverIdentity(stipendex.url),
      name: "Stipendex demo search",
      rail,
      client,
    });
    stipendexApp.use(stipendexHttpRouter(receiver, HTTP_PRICES.stipendex));
    stipendexApp.use(stipendexPaywalledPageRouter(receiver, HTTP_PRICES.paywalledPageStipendex));
    stipendexApp.use(mcpRouter({ receiver, x402: x402Server, rail, confirmations: new Map() }));

    const v1App = express();
    v1App.use(cors);
    v1App.use(x402V1Router({ rail, price: HTTP_PRICES.x402v1, facilitatorUrl: facilitator.url }));
    v1App.use(
      paywalledPageV1Router({
        rail,
        price: HTTP_PRICES.paywalledPageV1,
        facilitatorUrl: facilitator.url,
      }),
    );
    v1App.use(seed402Router({ rail, price: HTTP_PRICES.seed402, facilitatorUrl: facilitator.url }));
    const x402v1 = await listen(v1App, ports.x402v1 ?? 0);
    started.push(x402v1);

    const v2App = express();
    v2App.use(cors);
    v2App.use(x402V2Router({ rail, price: HTTP_PRICES.x402v2, server: x402Server }));
    v2App.use(paywalledPageRouter({ rail, price: HTTP_PRICES.paywalledPage, server: x402Server }));
    const x402v2 = await listen(v2App, ports.x402v2 ?? 0);
    started.push(x402v2);

    const partial = {
      stipendex: stipendex.url,
      x402v1: x402v1.url,
      x402v2: x402v2.url,
      facilitator: facilitator.url,
      mcpJson: `${stipendex.url}/mcp`,
      mcpSse: `${stipendex.url}/mcp-sse`,
      mcpPoll: `${stipendex.url}/mcp-poll`,
      mcp402: `${x402v1.url}${SEED_402_PATH}`,
    };
    const agent = await listen(await agentApp(partial), ports.agent ?? 0);
    started.push(agent);
    const urls: DemoUrls = {
      ...partial,
      agent: agent.url,
      paywalledPage: `${x402v2.url}${PAYWALLED_PAGE_PATH}`,
      paywalledPageV1: `${x402v1.url}${PAYWALLED_PAGE_PATH}`,
      paywalledPageStipendex: `${stipendex.url}${PAYWALLED_PAGE_PATH}`,
    };
    return { urls, chain, rail, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
