import { Router as createRouter, type Request, type RequestHandler, type Router } from "express";
import { base64url } from "jose";
import { sha256Base64url } from "../../lib/protocol/canonical-json";
import { toJsonForm } from "../../lib/protocol/envelope/json-form";
import { PAYWALLED_ARTICLE, PAYWALLED_PAGE_PATH } from "../paywalled-article";
import { PaymentRefusedError } from "./errors";
import type { StipendexReceiver } from "./receiver";
import { search } from "./search";

export const PAYMENT_HEADER = "Stipendex-Payment";
export const RECEIPT_HEADER = "Stipendex-Receipt";
/** A refused payment's authorization window, short so its release can be seen within a minute. */
export const REFUSED_WINDOW_SECONDS = 7;

/** The exact URL the client requested: what `resource.http.url` binds the Quote to. */
export function requestUrl(req: Request): string {
  return `${req.protocol}://${req.get("host")}${req.originalUrl}`;
}

/** What a paid GET sells: its Quote's description, and what it serves once paid. */
interface Sale {
  description(req: Request): string;
  serve(req: Request): { type: string; body: string };
}

/**
 * The seed's HTTP binding for one GET: 402 with a Quote until a valid
 * `Stipendex-Payment` arrives, then settles, serves, and signs a Receipt
 * naming the hash of what it served.
 */
function paidGet(receiver: StipendexReceiver, price: bigint, sale: Sale): RequestHandler {
  return async (req, res) => {
    const resource = { http: { method: "GET", url: requestUrl(req) } };
    // The demo switch for a receiver that refuses a payment after it was signed: `?refuse=<reason>`.
    const refuse = typeof req.query.refuse === "string" ? req.query.refuse.slice(0, 80) : undefined;
    const freshQuote = async () => {
      const quote = await receiver.quotes.issue({
        resource,
        description: sale.description(req),
        amount: price,
        ...(refuse ? { maxTimeoutSeconds: REFUSED_WINDOW_SECONDS } : {}),
      });
      return toJsonForm("quote", quote.jws);
    };
    const payment = req.get(PAYMENT_HEADER);
    if (payment === undefined) {
      res.status(402).json({ quote: await freshQuote() });
      return;
    }
    if (refuse) {
      res.status(402).json({
        error: refuse,
        detail: `This demo receiver was asked to refuse the payment (?refuse=${refuse}); it did not collect it`,
        quote: await freshQuote(),
      });
      return;
    }
    try {
      const redeemed = await receiver.redeem(payment, resource);
      const { type, body } = sale.serve(req);
      const receipt = await receiver.receipt(redeemed, await sha256Base64url(body));
      // The demo switch for a receiver that reads the seed's `base64url(Receipt JWS)` literally:
      // `?receiptEncoding=base64url` wraps the compact JWS once more.
      const wrap = req.query.receiptEncoding === "base64url";
      res.setHeader(RECEIPT_HEADER, wrap ? base64url.encode(receipt) : receipt);
      res.type(type).send(body);
    } catch (error) {
      if (!(error instanceof PaymentRefusedError)) throw error;
      res
        .status(402)
        .json({ error: error.reason, detail: error.message, quote: await freshQuote() });
    }
  };
}

/**
 * The seed's HTTP binding: the descriptor, and `GET /api/search` that answers 402 with a Quote
 * until a valid `Stipendex-Payment` arrives, then settles, serves, and signs a Receipt.
 */
export function stipendexHttpRouter(receiver: StipendexReceiver, price: bigint): Router {
  const router = createRouter();
  router.get("/.well-known/stipendex.json", (_req, res) => {
    res.json(receiver.descriptor());
  });
  router.get(
    "/api/search",
    paidGet(receiver, price, {
      description: (req) => `Web search for "${String(req.query.q ?? "").slice(0, 80)}"`,
      serve: (req) => ({
        type: "application/json",
        body: JSON.stringify(search(String(req.query.q ?? ""))),
      }),
    }),
  );
  return router;
}

/**
 * `GET /article` sold the same way, as a whole page: a browser that opens it
 * gets the 402 with its Quote (JSON, as the seed's binding has it), and the
 * article once it loads the page again with the payment.
 */
export function stipendexPaywalledPageRouter(receiver: StipendexReceiver, price: bigint): Router {
  const router = createRouter();
  router.get(
    PAYWALLED_PAGE_PATH,
    paidGet(receiver, price, {
      description: () => "Demo article (Stipendex paywalled page)",
      serve: () => ({ type: "html", body: PAYWALLED_ARTICLE }),
    }),
  );
  return router;
}
