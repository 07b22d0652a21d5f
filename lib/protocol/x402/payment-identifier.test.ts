import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { PAYMENT_IDENTIFIER, withPaymentIdentifier } from "./payment-identifier";

const NONCE: Hex = `0x${"ab".repeat(32)}`;

describe("withPaymentIdentifier", () => {
  it("fills a declared identifier's id from the nonce, required or not, keeping the rest", () => {
    for (const required of [true, false]) {
      const declared = { info: { required }, schema: { type: "object" } };
      const extensions = { bazaar: { info: { x: 1 } }, [PAYMENT_IDENTIFIER]: declared };
      const filled = withPaymentIdentifier(extensions, NONCE);
      expect(filled).toEqual({
        bazaar: { info: { x: 1 } },
        [PAYMENT_IDENTIFIER]: {
          info: { required, id: `pay_${"ab".repeat(32)}` },
          schema: declared.schema,
        },
      });
      // The server's PaymentRequired, kept in the offer, is not written to.
      expect(declared.info).toEqual({ required });
    }
  });

  it("gives an id the extension accepts: 16 to 128 of letters, digits, '_' and '-'", () => {
    const filled = withPaymentIdentifier(
      { [PAYMENT_IDENTIFIER]: { info: { required: true } } },
      NONCE,
    );
    const id = (filled[PAYMENT_IDENTIFIER] as { info: { id: string } }).info.id;
    expect(id).toMatch(/^[a-zA-Z0-9_-]{16,128}$/);
  });

  it("echoes extensions unchanged when none declares an identifier as the extension defines it", () => {
    for (const extensions of [
      {},
      { bazaar: {} },
      { [PAYMENT_IDENTIFIER]: true },
      { [PAYMENT_IDENTIFIER]: { schema: {} } },
      { [PAYMENT_IDENTIFIER]: { info: { required: "yes" } } },
      { [PAYMENT_IDENTIFIER]: { info: [] } },
    ]) {
      expect(withPaymentIdentifier(extensions, NONCE)).toBe(extensions);
    }
  });
});
