import { paymentMiddleware, type x402ResourceServer } from "@x402/express";
import { Router as createRouter, type Router } from "express";
import type { RailTemplate } from "../receiver/rail";
import { search } from "../receiver/search";

export interface V2Options {
  rail: RailTemplate;
  /** Atomic units of the rail's asset. */
  price: bigint;
  server: x402ResourceServer;
}

/** The v2 `exact` requirement for `price` on `rail`: asset, amount and EIP-712 domain explicit. */
export function v2PaymentOption(rail: RailTemplate, price: bigint) {
  return {
    scheme: "exact",
    network: rail.network,
    payTo: rail.payTo,
    price: {
      amount: price.toString(),
      asset: rail.asset,
      extra: { name: rail.eip712.name, version: rail.eip712.version },
    },
    maxTimeoutSeconds: rail.maxTimeoutSeconds,
  } as const;
}

/** `GET /api/search` behind the official x402 v2 middleware (`PAYMENT-SIGNATURE`). */
export function x402V2Router({ rail, price, server }: V2Options): Router {
  const router = createRouter();
  router.use(
    paymentMiddleware(
      {
        "GET /api/search": {
          accepts: v2PaymentOption(rail, price),
          description: "Demo web search (x402 v2)",
          mimeType: "application/json",
        },
      },
      server,
    ),
  );
  router.get("/api/search", (req, res) => {
    res.json(search(String(req.query.q ?? "")));
  });
  return router;
}
