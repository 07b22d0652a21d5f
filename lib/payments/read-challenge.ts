import { decodeJwt } from "jose";
import { errorText } from "../errors";
import type { PaymentChallenge } from "../messages";
import { argsHash } from "../protocol/canonical-json";
import type { Descriptor } from "../protocol/envelope/descriptor";
import { readJsonForm } from "../protocol/envelope/json-form";
import { verifyQuote } from "../protocol/envelope/quote";
import { quoteToOffer } from "../protocol/envelope/quote-to-offer";
import type { ResourceRequest } from "../protocol/envelope/resource";
import { isProtocolError } from "../protocol/errors";
import type { Offer, OfferTransport } from "../protocol/offer";
import { isRecord } from "../protocol/rails/is-record";
import type { Registry } from "../protocol/rails/registry";
import { readHttp402 } from "../protocol/x402/http";
import { readMcpPaymentRequired } from "../protocol/x402/mcp";
import type { DescriptorSource } from "./descriptors";
import { PaymentError } from "./errors";
import { jsonOrUndefined } from "./json-text";
import { knownOptions } from "./known-rails";

/** What is kept of why a Quote beside an x402 price was not taken. */
const MAX_REFUSAL_CHARS = 300;

export interface ChallengeContext {
  registry: Registry;
  descriptors: DescriptorSource;
  now: () => number;
}

export interface ReadOffer {
  offer: Offer;
  /** Stipendex only: the receiver's descriptor the Quote verified under. */
  descriptor?: Descriptor;
}

/**
 * Turns what the hook saw into a verified Offer: a Stipendex Quote is checked
 * against its receiver's descriptor and bound to the call the page made; an
 * x402 PaymentRequired is read and validated (it is unsigned, so its receiver
 * is the origin that served it). Throws a named error for anything else.
 * `requesterOrigin`, the page's, decides which receivers' descriptors may be fetched.
 */
export async function readChallenge(
  challenge: PaymentChallenge,
  context: ChallengeContext,
  requesterOrigin?: string,
): Promise<ReadOffer> {
  if (challenge.transport === "http") {
    const { url, method } = challenge;
    const request: ResourceRequest = { kind: "http", method, url };
    const body = jsonOrUndefined(challenge.body);
    // A receiver may offer both bindings (seed 000): its signed Quote is the one paid, the
    // unsigned x402 price (v2's header, or v1's accepts in the same body) only when the
    // Quote cannot be read.
    let quoteRefused: string | undefined;
    if (isRecord(body) && "quote" in body) {
      const quoted = readQuote(body.quote, request, "http", context, requesterOrigin);
      if (!challenge.paymentRequiredHeader?.trim() && !("accepts" in body)) return quoted;
      const read = await quoted.catch((error: unknown) => {
        quoteRefused = errorText(error).slice(0, MAX_REFUSAL_CHARS);
        return undefined;
      });
      if (read) return read;
    }
    const offer = readHttp402(
      {
        headers: {
          get: (name) =>
            /^payment-required$/i.test(name) ? challenge.paymentRequiredHeader : null,
        },
        body: challenge.body,
      },
      { receiver: originOf(url), resource: request, registry: context.registry },
    );
    const read = seed004Binding(offer, challenge);
    return { offer: quoteRefused === undefined ? read : { ...read, quoteRefused } };
  }
  const { server, tool } = challenge;
  const request: ResourceRequest = { kind: "mcp", server, tool, arguments: challenge.arguments };
  const data = challenge.error?.data;
  if (challenge.error !== undefined) {
    if (challenge.error.code !== -32402 || !isRecord(data) || !("quote" in data)) {
      throw new PaymentError(
        "unreadable-challenge",
        `MCP error ${challenge.error.code} carries no Stipendex quote in data.quote`,
      );
    }
    return readQuote(data.quote, request, "mcp", context, requesterOrigin);
  }
  const offer = readMcpPaymentRequired(challenge.result, {
    receiver: originOf(server),
    resource: { kind: "mcp", server, tool, argsHash: await argsHash(challenge.arguments) },
    registry: context.registry,
  });
  if (!offer)
    throw new PaymentError("unreadable-challenge", "The MCP result is not an x402 PaymentRequired");
  return { offer };
}

/**
 * Verifies a Quote's JSON form under the descriptor of the receiver it names,
 * fetched only if the page at `requesterOrigin` may reach that receiver.
 */
export async function readQuote(
  jsonForm: unknown,
  request: ResourceRequest | undefined,
  transport: OfferTransport,
  context: ChallengeContext,
  requesterOrigin?: string,
): Promise<ReadOffer> {
  const jws = readJsonForm(jsonForm, "quote");
  const issuer = unverifiedIssuer(jws);
  const now = new Date(context.now());
  let descriptor = await context.descriptors.get(issuer, { requesterOrigin });
  let quote: Awaited<ReturnType<typeof verifyQuote>>;
  try {
    quote = await verifyQuote(jws, { descriptor, now, ...(request ? { request } : {}) });
  } catch (error) {
    // A key rotated since the descriptor was cached: fetch it again, once (§7).
    if (!isProtocolError(error, "key-not-in-descriptor")) throw error;
    descriptor = await context.descriptors.get(issuer, { requesterOrigin, refresh: true });
    quote = await verifyQuote(jws, { descriptor, now, ...(request ? { request } : {}) });
  }
  const offer = knownOptions(quoteToOffer(quote, transport), context.registry);
  return { offer: { ...offer, receiverName: descriptor.name }, descriptor };
}

/**
 * Seed 004's binding: a 402 to a POST that carries an MCP tools/call, its price in the body,
 * is retried with X-PAYMENT ("retries the same POST with header X-PAYMENT"), also when the
 * body says x402Version 2 (a v2 price is otherwise sent in the PAYMENT-REQUIRED header, and
 * answered with PAYMENT-SIGNATURE). Black-box review: such a server went unpaid, "payment_parse".
 */
function seed004Binding(offer: Offer, challenge: PaymentChallenge & { transport: "http" }): Offer {
  const inBody = !challenge.paymentRequiredHeader?.trim();
  if (challenge.call === undefined || !inBody || offer.x402?.version !== 2) return offer;
  return { ...offer, x402: { ...offer.x402, retryHeader: "X-PAYMENT" } };
}

/** Only to know whose descriptor to fetch; every claim is verified after. */
function unverifiedIssuer(jws: string): string {
  let iss: unknown;
  try {
    iss = decodeJwt(jws).iss;
  } catch (cause) {
    throw new PaymentError("unreadable-challenge", "The Quote is not a readable JWT", { cause });
  }
  if (typeof iss !== "string")
    throw new PaymentError("unreadable-challenge", "The Quote names no issuer (iss)");
  return iss;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch (cause) {
    throw new PaymentError("unreadable-challenge", `${JSON.stringify(url)} is not a URL`, {
      cause,
    });
  }
}
