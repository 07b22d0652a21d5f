import { z } from "zod";
import { ProtocolError } from "../errors";
import { isLoopbackHost } from "../loopback-host";
import {
  anyChainPlaceFields,
  evmPlaceFields,
  isEvmRail,
  type OfferedRail,
  withEvmChecks,
} from "./claims";
import { parseClaims } from "./parse-claims";

const publicJwkSchema = z
  .looseObject({ kty: z.enum(["OKP", "EC", "RSA"]), kid: z.string().min(1) })
  .refine((jwk) => !("d" in jwk), { message: "must be a public key (it has a private part)" });

/** A rail on any CAIP-2 chain; on an EVM chain with 0x addresses (claims.ts, withEvmChecks). */
export const descriptorRailSchema = withEvmChecks(
  z.looseObject({ rail: z.literal("x402-exact"), ...anyChainPlaceFields }),
  z.looseObject(evmPlaceFields),
);

export const descriptorSchema = z.looseObject({
  stipendex: z.literal("descriptor/0.1"),
  id: z.string().min(1),
  // Shown to the person beside the receiver's id: no line breaks, nothing that reorders or hides
  // text (the joiners some scripts and emoji need aside). The seed's descriptor has no name: one
  // absent or unfit for showing is left out, and the receiver is named by its id.
  name: z
    .string()
    .min(1)
    .max(200)
    .regex(
      /^(?:[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|[\u200C\u200D])*$/u,
      "must be one line without control, bidi or invisible characters",
    )
    // The combining grapheme joiner (U+034F) shows nothing either; a class cannot hold a combining mark.
    .refine((name) => !name.includes("\u034F"), {
      message: "must be one line without control, bidi or invisible characters",
    })
    .optional()
    .catch(undefined),
  keys: z.looseObject({ keys: z.array(publicJwkSchema).min(1).max(32) }),
  rails: z.array(descriptorRailSchema).min(1).max(64),
  // Where a registry lists the receiver: https, or plain http on loopback, as a receiver id may
  // be. It only decides whether the receiver is shown as listed: an unfit one is left out.
  registry: z
    .url({ protocol: /^https?$/ })
    .refine((url) => {
      const { protocol, hostname } = new URL(url);
      return protocol === "https:" || isLoopbackHost(hostname);
    }, "must be https (plain http only on loopback)")
    .optional()
    .catch(undefined),
  profiles: z.array(z.enum(["L0", "L1", "L2"])).optional(),
});
export type Descriptor = z.infer<typeof descriptorSchema>;

/** A receiver id is an origin: https, or plain http only on loopback (§7). */
export function assertReceiverId(id: string): void {
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    throw new ProtocolError(
      "insecure-receiver-id",
      `Receiver id ${JSON.stringify(id)} is not a URL`,
    );
  }
  if (url.origin !== id) {
    throw new ProtocolError(
      "insecure-receiver-id",
      `Receiver id ${JSON.stringify(id)} is not an origin (expected ${JSON.stringify(url.origin)})`,
    );
  }
  const secure =
    url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
  if (!secure) {
    throw new ProtocolError(
      "insecure-receiver-id",
      `Receiver id ${JSON.stringify(id)} must be https (plain http only on loopback)`,
    );
  }
}

/**
 * Validates a descriptor the background fetched itself: §4 shape, an origin
 * id, and that id is the origin it came from (a full URL is reduced to its origin).
 */
export function checkDescriptor(descriptor: unknown, fetchedFromOrigin: string): Descriptor {
  const parsed = parseClaims(descriptorSchema, descriptor, "Descriptor", "invalid-descriptor");
  assertReceiverId(parsed.id);
  let origin: string;
  try {
    origin = new URL(fetchedFromOrigin).origin;
  } catch {
    throw new ProtocolError(
      "descriptor-id-mismatch",
      `Descriptor was fetched from ${JSON.stringify(fetchedFromOrigin)}, which is not a URL`,
    );
  }
  if (parsed.id !== origin) {
    throw new ProtocolError(
      "descriptor-id-mismatch",
      `Descriptor id ${JSON.stringify(parsed.id)} is not the origin it was fetched from (${origin})`,
    );
  }
  return parsed;
}

/**
 * Every Quote rail must be listed (same network, asset, payTo). EVM addresses
 * match in any letter case; other chains' (base58 and the like) only exactly.
 */
export function assertRailsListed(rails: readonly OfferedRail[], descriptor: Descriptor): void {
  for (const [index, rail] of rails.entries()) {
    const comparable = isEvmRail(rail) ? (address: string) => address.toLowerCase() : String;
    const listed = descriptor.rails.some(
      (entry) =>
        entry.rail === rail.rail &&
        entry.network === rail.network &&
        comparable(entry.asset) === comparable(rail.asset) &&
        comparable(entry.payTo) === comparable(rail.payTo),
    );
    if (!listed) {
      throw new ProtocolError(
        "rail-not-in-descriptor",
        `Quote rail ${index} (${rail.network}, asset ${rail.asset}, payTo ${rail.payTo}) is not listed in the descriptor of ${descriptor.id}`,
      );
    }
  }
}
