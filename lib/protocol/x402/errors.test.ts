import { describe, expect, it } from "vitest";
import { StipendexError } from "../../errors";
import { UnknownAssetError } from "../rails/errors";
import { BodyTooLargeError, DomainMissingError, NoPayableOptionError } from "./errors";

describe("x402 errors", () => {
  it("carry a code and say which field and value", () => {
    const error = new DomainMissingError("accepts[0].extra.name", undefined);
    expect(error).toBeInstanceOf(StipendexError);
    expect(error.code).toBe("domain-missing");
    expect(error.message).toBe(
      "EIP-712 domain name/version missing: accepts[0].extra.name must be a non-empty string, got undefined",
    );
    expect(new BodyTooLargeError("402 body", 70000, 65536).message).toContain("70000 bytes");
  });

  it("NoPayableOptionError lists each skipped option, or says accepts was empty", () => {
    const skipped = [{ index: 2, error: new UnknownAssetError("eip155:1", "0xabc") }];
    const error = new NoPayableOptionError(skipped);
    expect(error.skipped).toBe(skipped);
    expect(error.message).toContain('accepts[2]: unknown-asset: unknown asset "0xabc" on eip155:1');
    expect(new NoPayableOptionError([]).message).toContain("accepts is empty");
  });
});
