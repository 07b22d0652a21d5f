import { paymentMiddleware, type x402ResourceServer } from "@x402/express";
import { Router as createRouter, type Request, type Response, type Router } from "express";
import { paymentMiddleware as v1PaymentMiddleware } from "x402-express";
import { PAYWALLED_ARTICLE, PAYWALLED_PAGE_PATH } from "../paywalled-article";
import type { RailTemplate } from "../receiver/rail";
import { v1RouteConfig } from "./server-v1";
import { v2PaymentOption } from "./server-v2";

function sendArticle(_req: Request, res: Response): void {
  res.type("html").send(PAYWALLED_ARTICLE);
}

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
  router.get(PAYWALLED_PAGE_PATH, sendArticle);
  return router;
}

/**
 * `GET /article` behind the official x402 v1 middleware: a browser asking for
 * HTML gets its paywall page with status 402 and no price in a header (v1
 * gives browsers HTML only; asked for JSON, it answers its `accepts`); paid in
 * X-PAYMENT, the article with X-PAYMENT-RESPONSE.
 */
export function paywalledPageV1Router(options: {
  rail: RailTemplate;
  price: bigint;
  facilitatorUrl: string;
}): Router {
  const router = createRouter();
  router.use(
    v1PaymentMiddleware(
      options.rail.payTo,
      {
        [`GET ${PAYWALLED_PAGE_PATH}`]: v1RouteConfig(options.rail, options.price, {
          description: "Demo article (x402 v1 paywalled page)",
          mimeType: "text/html",
        }),
      },
      { url: options.facilitatorUrl as `${string}://${string}` },
    ),
  );
  router.get(PAYWALLED_PAGE_PATH, sendArticle);
  return router;
}
