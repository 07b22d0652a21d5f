import { Router as createRouter, type Request, type Router } from "express";
import { sha256Base64url } from "../../lib/protocol/canonical-json";
import { toJsonForm } from "../../lib/protocol/envelope/json-form";
import { PaymentRefusedError } from "./errors";
import type { StipendexReceiver } from "./receiver";
import { search } from "./search";

export const PAYMENT_HEADER = "Stipendex-Payment";
export const RECEIPT_HEADER = "Stipendex-Receipt";
/** A refused payment's authorization window, short so its release can be seen within a minute. */
export const REFUSED_WINDOW_SECONDS = 5;

/** The exact URL the client requested: what `resource.http.url` binds the Quote to. */
export function requestUrl(req: Request): string {
  return `${req.protocol}://${req.get("host")}${req.originalUrl}`;
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
  router.get("/api/search", async (req, res) => {
    const resource = { http: { method: "GET", url: requestUrl(req) } };
    // The demo switch for a receiver that refuses a payment after it was signed: `?refuse=<reason>`.
    const refuse = typeof req.query.refuse === "string" ? req.query.refuse.slice(0, 80) : undefined;
    const freshQuote = async () => {
      const quote = await receiver.quotes.issue({
        resource,
        description: `Web search for "${String(req.query.q ?? "").slice(0, 80)}"`,
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
      const body = JSON.stringify(search(String(req.query.q ?? "")));
      const receipt = await receiver.receipt(redeemed, await sha256Base64url(body));
      res.setHeader(RECEIPT_HEADER, receipt);
      res.type("application/json").send(body);
    } catch (error) {
      if (!(error instanceof PaymentRefusedError)) throw error;
      res
        .status(402)
        .json({ error: error.reason, detail: error.message, quote: await freshQuote() });
    }
  });
  return router;
}
