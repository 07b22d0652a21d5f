import { Router as createRouter, type Router } from "express";
import { paymentMiddleware } from "x402-express";
import type { RailTemplate } from "../receiver/rail";
import { search } from "../receiver/search";

export interface V1Options {
  rail: RailTemplate;
  /** Atomic units of the rail's asset. */
  price: bigint;
  /** Base URL of the v1 facilitator app. */
  facilitatorUrl: string;
}

/**
 * One route's terms for the official x402 v1 middleware: the rail's token at
 * `price` atomic units. v1 knows only fixed network names; the demo chain runs
 * as Base Sepolia (84532).
 */
export function v1RouteConfig(
  rail: RailTemplate,
  price: bigint,
  config: { description: string; mimeType: string },
) {
  return {
    network: "base-sepolia",
    price: {
      amount: price.toString(),
      asset: {
        address: rail.asset,
        decimals: rail.decimals,
        eip712: { name: rail.eip712.name, version: rail.eip712.version },
      },
    },
    config: { ...config, maxTimeoutSeconds: rail.maxTimeoutSeconds },
  } as const;
}

/** `GET /api/search` behind the official x402 v1 middleware (`X-PAYMENT` / `X-PAYMENT-RESPONSE`). */
export function x402V1Router({ rail, price, facilitatorUrl }: V1Options): Router {
  const router = createRouter();
  router.use(
    paymentMiddleware(
      rail.payTo,
      {
        "GET /api/search": v1RouteConfig(rail, price, {
          description: "Demo web search (x402 v1)",
          mimeType: "application/json",
        }),
      },
      { url: facilitatorUrl as `${string}://${string}` },
    ),
  );
  router.get("/api/search", (req, res) => {
    res.json(search(String(req.query.q ?? "")));
  });
  return router;
}
