import { z } from "zod";
import { MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS } from "../rails/eip3009";
import { atomicAmountSchema } from "./amount";

/** Any chain, as CAIP-2 names it (namespace:reference). */
export const caip2Schema = z
  .string()
  .regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/, "must be a CAIP-2 chain id (namespace:reference)");
/** An EVM chain, the only kind this wallet pays on: where a Proof and a Receipt name a chain. */
export const evmNetworkSchema = z
  .string()
  .regex(/^eip155:[1-9][0-9]{0,15}$/, "must be eip155:<chain id>");
export const addressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address");
const hexSchema = z.string().regex(/^0x([0-9a-fA-F]{2})+$/, "must be 0x-prefixed hex bytes");
const b64urlSha256 = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "must be a base64url SHA-256");
const httpUrl = z.url({ protocol: /^https?$/ });
const jti = z.string().min(1).max(256);
/** RFC 7519 NumericDate: seconds, fractions allowed; read whole (rounded down, so never later). */
const time = z.number().nonnegative().max(Number.MAX_SAFE_INTEGER).transform(Math.floor);
/** One line a human judges: control characters (newlines) could forge extra lines in the UI. */
const humanLine = z
  .string()
  .min(1)
  .max(1000)
  .regex(/^[^\p{Cc}]*$/u, "must be one line without control characters");
const walletId = z
  .string()
  .regex(
    /^urn:ietf:params:oauth:jwk-thumbprint:sha-256:[A-Za-z0-9_-]{43}$/,
    "must be a JWK thumbprint URI",
  );

/** Display value, e.g. { amount: "0.005", currency: "USD" }. */
export const totalSchema = z.looseObject({
  amount: z.string().regex(/^\d+(\.\d+)?$/, "must be a plain decimal like 0.005"),
  currency: z.string().min(1).max(16),
});

/** Where a rail on an EVM chain pays: its chain id, token and account as 0x addresses. */
export const evmPlaceFields = {
  network: evmNetworkSchema,
  asset: addressSchema,
  payTo: addressSchema,
};

/** Non-empty, as another chain spells an account or a token (base58, bech32…). */
const chainAddressSchema = z.string().min(1).max(256);

/** Where a rail on any CAIP-2 chain pays. */
export const anyChainPlaceFields = {
  network: caip2Schema,
  asset: chainAddressSchema,
  payTo: chainAddressSchema,
};

/** What an EVM rail names beyond any rail: where it pays and the token's EIP-712 domain. */
const evmRailFields = {
  ...evmPlaceFields,
  extra: z.looseObject({ name: z.string().min(1), version: z.string().min(1) }),
  // EIP-3009's receivers refuse an authorization with less than 6 s left (section 7).
  maxTimeoutSeconds: z.int().min(MIN_TIMEOUT_SECONDS).max(MAX_TIMEOUT_SECONDS),
};

const railFields = {
  rail: z.literal("x402-exact"),
  amount: atomicAmountSchema,
  decimals: z.int().min(0).max(77),
  symbol: z.string().min(1).max(32),
  maxTimeoutSeconds: z.int().positive().max(MAX_TIMEOUT_SECONDS),
};

/** A rail this wallet pays: EIP-3009 on an EVM chain. A Proof carries one. */
export const railSchema = z.looseObject({ ...railFields, ...evmRailFields });
export type Rail = z.infer<typeof railSchema>;

function isEip155(network: unknown): boolean {
  return typeof network === "string" && network.startsWith("eip155:");
}

/**
 * `schema` (a rail on any CAIP-2 chain) with `evmFields` checked too when the
 * rail is on an eip155 chain: a rail on another chain passes on its shape, to
 * be dropped by the wallet (it cannot pay it) instead of refusing the rails
 * beside it; an EVM rail loses none of its checks.
 */
export function withEvmChecks<S extends z.ZodType<{ network: string }>>(
  schema: S,
  evmFields: z.ZodType,
): S {
  return schema.superRefine((rail, ctx) => {
    if (!isEip155(rail.network)) return;
    for (const issue of evmFields.safeParse(rail).error?.issues ?? []) {
      ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    }
  });
}

/** A rail as a Quote offers it (§2, x402-shaped): on an EVM chain exactly a `Rail`. */
export const offeredRailSchema = withEvmChecks(
  z.looseObject({ ...railFields, ...anyChainPlaceFields, extra: z.looseObject({}).optional() }),
  z.looseObject(evmRailFields),
);
export type OfferedRail = z.infer<typeof offeredRailSchema>;

/** Whether an offered rail is on an EVM chain, and so (having passed offeredRailSchema) a `Rail`. */
export function isEvmRail(rail: OfferedRail): rail is Rail {
  return isEip155(rail.network);
}

/** Exactly one of `http` and `mcp`; other members are ignored, as everywhere else in a Quote. */
export const resourceSchema = z.union([
  z.looseObject({
    http: z.looseObject({ method: z.string().regex(/^[A-Z]+$/), url: httpUrl }),
    mcp: z.never().optional(),
  }),
  z.looseObject({
    mcp: z.looseObject({
      server: httpUrl,
      tool: z.string().min(1).max(256),
      argsHash: b64urlSha256,
    }),
    http: z.never().optional(),
  }),
]);
export type Resource = z.infer<typeof resourceSchema>;

export const profileSchema = z.enum(["L0", "L1", "L2"]);

/** Top-level claims are plain objects: unknown claims are dropped from the parsed view. */
export const quoteClaimsSchema = z.object({
  stipendex: z.literal("quote/0.1"),
  iss: z.string().min(1),
  jti,
  iat: time,
  exp: time,
  resource: resourceSchema,
  description: humanLine,
  total: totalSchema,
  rails: z.array(offeredRailSchema).min(1).max(16),
  profile: profileSchema.optional(),
});
export type QuoteClaims = z.infer<typeof quoteClaimsSchema>;

export const confirmationClaimsSchema = z
  .object({
    stipendex: z.literal("confirmation/0.1"),
    iss: walletId,
    aud: z.string().min(1),
    jti,
    iat: time,
    exp: time,
    qh: b64urlSha256,
    origin: z.string().min(1),
    decision: z.enum(["approve", "decline"]),
    mode: z.enum(["popup", "elicitation", "policy"]),
    rule: z.string().min(1).optional(),
    humanPresent: z.boolean(),
    shown: z.looseObject({
      description: z.string(),
      total: totalSchema,
      remaining: z.record(z.string(), z.unknown()),
    }),
  })
  .refine((claims) => claims.mode !== "policy" || claims.rule !== undefined, {
    message: 'a "policy" decision must name its rule',
    path: ["rule"],
  });
export type ConfirmationClaims = z.infer<typeof confirmationClaimsSchema>;

export const authorizationSchema = z.object({
  from: addressSchema,
  to: addressSchema,
  value: atomicAmountSchema,
  validAfter: atomicAmountSchema,
  validBefore: atomicAmountSchema,
  nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 32-byte hex nonce"),
});

export const proofClaimsSchema = z.object({
  stipendex: z.literal("proof/0.1"),
  iss: walletId,
  aud: z.string().min(1),
  jti,
  iat: time,
  exp: time,
  qh: b64urlSha256,
  ch: b64urlSha256,
  confirmation: z.string().optional(),
  rail: railSchema,
  payment: z.object({ signature: hexSchema, authorization: authorizationSchema }),
});
export type ProofClaims = z.infer<typeof proofClaimsSchema>;

export const receiptClaimsSchema = z
  .object({
    stipendex: z.literal("receipt/0.1"),
    iss: z.string().min(1),
    sub: walletId,
    jti,
    iat: time,
    exp: time.optional(),
    qh: b64urlSha256,
    ph: b64urlSha256,
    status: z.enum(["settled", "accepted"]),
    // An "accepted" Receipt's settlement is pending: it may name no transaction, or none at all.
    settlement: z
      .object({
        network: evmNetworkSchema,
        // A settlement still pending has no hash to give: left out or null, read as "" (none yet).
        transaction: z
          .string()
          .regex(/^(0x[0-9a-fA-F]{64})?$/, "must be a 32-byte tx hash")
          .nullish()
          .transform((hash) => hash ?? ""),
        amount: atomicAmountSchema,
        asset: addressSchema,
        payer: addressSchema,
      })
      .optional(),
    resultHash: b64urlSha256.optional(),
  })
  // "accepted" means settlement pending, so only then may the transaction be empty or missing.
  .refine(
    (claims) =>
      claims.status !== "settled" ||
      (claims.settlement !== undefined && claims.settlement.transaction !== ""),
    {
      message: "a settled Receipt must name its transaction",
      path: ["settlement", "transaction"],
    },
  );
export type ReceiptClaims = z.infer<typeof receiptClaimsSchema>;
