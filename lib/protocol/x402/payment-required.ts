import { z } from "zod";
import { isProtocolError, ProtocolError } from "../errors";
import type { Offer, OfferResource, OfferTransport, PaymentOption } from "../offer";
import type { Registry } from "../rails/registry";
import { readRequirement } from "./requirement";
import { jsonObjectSchema, readX402 } from "./schema";

/** What the wallet knows about the call that was answered with a 402, from the browser. */
export interface ReadContext {
  /** The origin that served the 402: the party an x402 payment goes to. */
  receiver: string;
  resource: OfferResource;
  registry: Registry;
}

/**
 * How many of a server's options the wallet reads, in its order: x402 sets no bound, and a
 * longer list (the price's bytes are capped) only has its first ones read (black-box review: 40
 * options, the payable one first, went unpaid).
 */
const MAX_ACCEPTS_READ = 32;

/** How many of the reasons options went unread an Offer keeps (each is one short line). */
const MAX_UNREAD_KEPT = 4;

/** The entries are read one by one, so that one the wallet cannot pay does not hide the rest. */
const acceptsSchema = z.array(z.unknown(), { error: "not an array" });

/** A decoded PaymentRequired by version; members it does not name are kept. */
const paymentRequiredSchema = z.discriminatedUnion(
  "x402Version",
  [
    // Seed 004 prints a 402 body without x402Version: read as version 1, and said so.
    z.looseObject({ x402Version: z.literal(1).optional(), accepts: acceptsSchema }),
    z.looseObject({
      x402Version: z.literal(2),
      accepts: acceptsSchema,
      resource: jsonObjectSchema.optional(),
    }),
  ],
  { error: "only 1 and 2 are read" },
);

/** A `description` a server gave as a string; any other is left out. */
const describedSchema = z.object({ description: z.string() });

/**
 * The description `value` (a v2 resource, a v1 requirement) gives, or "". A v1 price
 * describes each option apart: the one shown must be the one paid (lib/payments/payee.ts).
 */
export function describedBy(value: unknown): string {
  return describedSchema.safeParse(value).data?.description ?? "";
}

/** Read a decoded x402 PaymentRequired (v1 or v2) into an Offer of the options the wallet can pay. */
export function readPaymentRequired(
  value: unknown,
  transport: OfferTransport,
  context: ReadContext,
): Offer {
  const read = <S extends z.ZodType>(schema: S) =>
    readX402(schema, value, "PaymentRequired", "malformed-payment-required", {
      x402Version: "unsupported-x402-version",
    });
  const paymentRequired = read(jsonObjectSchema);
  const parsed = read(paymentRequiredSchema);
  const version = parsed.x402Version ?? 1;
  const options: PaymentOption[] = [];
  const skipped: string[] = [];
  parsed.accepts.slice(0, MAX_ACCEPTS_READ).forEach((entry, index) => {
    try {
      options.push(readRequirement(entry, version, index, context.registry));
    } catch (error) {
      if (!isProtocolError(error)) throw error;
      skipped.push(`accepts[${index}]: ${error.code}: ${error.message}`);
    }
  });
  if (parsed.accepts.length > MAX_ACCEPTS_READ) {
    skipped.push(
      `accepts[${MAX_ACCEPTS_READ}] and after: not read (the first ${MAX_ACCEPTS_READ} are)`,
    );
  }
  const first = options[0];
  if (!first) {
    throw new ProtocolError(
      "no-payable-option",
      `no payment option this wallet can pay${skipped.length ? `; ${skipped.join("; ")}` : ": accepts is empty"}`,
    );
  }
  return {
    protocol: version === 1 ? "x402-v1" : "x402-v2",
    transport,
    receiver: context.receiver,
    ...(skipped.length > 0 ? { unread: skipped.slice(0, MAX_UNREAD_KEPT) } : {}),
    resource: context.resource,
    description: describedBy(parsed.x402Version === 2 ? parsed.resource : first.raw),
    options,
    ...(parsed.x402Version === undefined
      ? { defaults: [{ field: "x402Version", value: "1" }] }
      : {}),
    x402: { version, paymentRequired },
  };
}
