import { StipendexError } from "../../errors";
import type { Offer, OfferResource, OfferTransport, PaymentOption } from "../offer";
import { isRecord } from "../rails/is-record";
import type { Registry } from "../rails/registry";
import {
  MalformedPaymentRequiredError,
  NoPayableOptionError,
  type SkippedOption,
  UnsupportedX402VersionError,
} from "./errors";
import { readRequirement } from "./requirement";

/** What the wallet knows about the call that was answered with a 402, from the browser. */
export interface ReadContext {
  /** The origin that served the 402: the party an x402 payment goes to. */
  receiver: string;
  resource: OfferResource;
  registry: Registry;
}

/** A server listing hundreds of options is not one the wallet needs to read. */
const MAX_ACCEPTS = 32;

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Read a decoded x402 PaymentRequired (v1 or v2) into an Offer of the options the wallet can pay. */
export function readPaymentRequired(
  value: unknown,
  transport: OfferTransport,
  context: ReadContext,
): Offer {
  if (!isRecord(value)) {
    throw new MalformedPaymentRequiredError("PaymentRequired", "is not an object", value);
  }
  // Seed 004 prints a 402 body without x402Version: read as version 1, and say so.
  const version = value.x402Version === undefined ? 1 : value.x402Version;
  if (version !== 1 && version !== 2) {
    throw new UnsupportedX402VersionError("PaymentRequired", version);
  }
  const defaults =
    value.x402Version === undefined ? [{ field: "x402Version", value: "1" }] : undefined;
  const accepts = value.accepts;
  if (!Array.isArray(accepts)) {
    throw new MalformedPaymentRequiredError("accepts", "is not an array", accepts);
  }
  if (accepts.length > MAX_ACCEPTS) {
    throw new MalformedPaymentRequiredError(
      "accepts",
      `has more than ${MAX_ACCEPTS} entries`,
      accepts.length,
    );
  }
  const resource = value.resource;
  if (version === 2 && resource !== undefined && !isRecord(resource)) {
    throw new MalformedPaymentRequiredError("resource", "is not an object", resource);
  }
  const options: PaymentOption[] = [];
  const skipped: SkippedOption[] = [];
  accepts.forEach((entry, index) => {
    try {
      options.push(readRequirement(entry, version, index, context.registry));
    } catch (error) {
      if (!(error instanceof StipendexError)) throw error;
      skipped.push({ index, error });
    }
  });
  const first = options[0];
  if (!first) throw new NoPayableOptionError(skipped);
  const description =
    version === 2
      ? text(isRecord(resource) ? resource.description : undefined)
      : text(first.raw.description);
  return {
    protocol: version === 1 ? "x402-v1" : "x402-v2",
    transport,
    receiver: context.receiver,
    resource: context.resource,
    description: description ?? "",
    options,
    ...(defaults ? { defaults } : {}),
    x402: { version, paymentRequired: value },
  };
}
