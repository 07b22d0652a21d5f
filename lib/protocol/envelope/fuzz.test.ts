import fc from "fast-check";
import { base64url } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import {
  makeReceiver,
  NOW,
  ORIGIN,
  quoteInput,
  type TestReceiver,
} from "../../../tests/unit-support/protocol/envelope/test-fixtures";
import { StipendexError } from "../../errors";
import { readCompact } from "./compact";
import { verifyConfirmation } from "./confirmation";
import { readJsonForm } from "./json-form";
import { verifyProof } from "./proof";
import { signQuote, type VerifiedQuote, verifyQuote } from "./quote";
import { verifyReceipt } from "./receipt";

/** Runs a reader and reports whether it failed with a StipendexError (true) or did anything else. */
async function failsCleanly(read: () => unknown): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (error) {
    return error instanceof StipendexError;
  }
}

const segment = fc.string({
  unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
  minLength: 1,
  maxLength: 60,
});
const compactLike = fc.tuple(segment, segment, segment).map((parts) => parts.join("."));
const jsonHeaderToken = fc
  .tuple(fc.jsonValue(), fc.jsonValue())
  .map(
    ([h, p]) =>
      `${base64url.encode(JSON.stringify(h) ?? "null")}.${base64url.encode(JSON.stringify(p) ?? "null")}.AQ`,
  );
const anyInput = fc.oneof(
  fc.jsonValue(),
  fc.string(),
  compactLike,
  jsonHeaderToken,
  fc.record({
    stipendex: fc.constant("quote/0.1"),
    jws: fc.oneof(fc.string(), compactLike, jsonHeaderToken),
  }),
);

describe("readers never succeed on random input and only throw StipendexError", () => {
  let receiver: TestReceiver;
  let quote: VerifiedQuote;
  beforeAll(async () => {
    receiver = await makeReceiver();
    quote = await verifyQuote(await signQuote(quoteInput(), receiver.key), {
      descriptor: receiver.descriptor,
      now: NOW,
    });
  });

  it("readJsonForm and readCompact", async () => {
    await fc.assert(
      fc.asyncProperty(anyInput, async (input) => {
        expect(
          await failsCleanly(() =>
            verifyQuote(readJsonForm(input, "quote"), {
              descriptor: receiver.descriptor,
              now: NOW,
            }),
          ),
        ).toBe(true);
        expect(
          await failsCleanly(() =>
            verifyQuote(readCompact(input), { descriptor: receiver.descriptor, now: NOW }),
          ),
        ).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("verifyProof, verifyConfirmation and verifyReceipt", async () => {
    await fc.assert(
      fc.asyncProperty(anyInput, async (input) => {
        const now = NOW;
        expect(
          await failsCleanly(() => verifyProof(input, { quote, receiverId: ORIGIN, now })),
        ).toBe(true);
        expect(
          await failsCleanly(() => verifyConfirmation(input, { receiverId: ORIGIN, now })),
        ).toBe(true);
        const hashes = { quoteHash: quote.hash, proofHash: quote.hash };
        expect(
          await failsCleanly(() =>
            verifyReceipt(input, { descriptor: receiver.descriptor, ...hashes, now }),
          ),
        ).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("a real token with random JSON spliced into its payload never verifies", async () => {
    const [header, , signature] = quote.jws.split(".");
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (payload) => {
        const forged = `${header}.${base64url.encode(JSON.stringify(payload) ?? "null")}.${signature}`;
        expect(
          await failsCleanly(() =>
            verifyQuote(forged, { descriptor: receiver.descriptor, now: NOW }),
          ),
        ).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
