import { paymentMiddleware, type x402ResourceServer } from "@x402/express";
import { Router as createRouter, type Router } from "express";
import type { RailTemplate } from "../receiver/rail";
import { v2PaymentOption } from "./server-v2";

/** Where the demo's paywalled article lives on the x402 v2 server. */
export const PAYWALLED_PAGE_PATH = "/article";

/** The article a paid load shows (the e2e tests look for its data-testid). */
export const PAYWALLED_ARTICLE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Paid article</title></head>
  <body>
    <h1>Paid article</h1>
    <p data-testid="paid-article">You paid for this page with x402: the wallet loaded it once with the payment.</p>
  </body>
</html>`;

/**
 * `GET /article` behind the official x402 v2 middleware, as a site puts a page
 * behind a paywall: a browser asking for HTML gets the middleware's paywall page
 * with status 402 and the PAYMENT-REQUIRED header; paid, it gets the article.
 */
export function paywalledPageRouter(options: {
  rail: RailTemplate;
  price: bigint;
  server: x402ResourceServer;
}): Router {
  const router = createRouter();
  router.use(
    paymentMiddleware(
      {
        [`GET ${PAYWALLED_PAGE_PATH}`]: {
          accepts: v2PaymentOption(options.rail, options.price),
          description: "Demo article (x402 v2 paywalled page)",
          mimeType: "text/html",
        },
      },
      options.server,
    ),
  );
  router.get(PAYWALLED_PAGE_PATH, (_req, res) => {
    res.type("html").send(PAYWALLED_ARTICLE);
  });
  return router;
}
