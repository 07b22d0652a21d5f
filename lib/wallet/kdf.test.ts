import { base64url } from "jose";
import { bytesToHex } from "viem";
import { describe, expect, it } from "vitest";
import { deriveVaultKey, MIN_PBKDF2_ITERATIONS, newKdfParams } from "./kdf";

describe("newKdfParams", () => {
  it("defaults to 600,000 PBKDF2-SHA256 iterations with a random 16-byte salt", () => {
    const a = newKdfParams();
    const b = newKdfParams();
    expect(a).toMatchObject({ name: "PBKDF2", hash: "SHA-256", iterations: 600_000 });
    expect(MIN_PBKDF2_ITERATIONS).toBe(600_000);
    expect(base64url.decode(a.salt)).toHaveLength(16);
    expect(a.salt).not.toBe(b.salt);
  });

  it("keeps a higher iteration count", () => {
    expect(newKdfParams(700_000).iterations).toBe(700_000);
  });

  it("refuses fewer than 600,000 iterations, naming the value", () => {
    expect(() => newKdfParams(599_999)).toThrow(
      expect.objectContaining({ name: "WalletError", code: "weak-kdf-params" }),
    );
    expect(() => newKdfParams(599_999)).toThrow(/at least 600000, got 599999/);
    expect(() => newKdfParams(600_000.5)).toThrow(
      expect.objectContaining({ name: "WalletError", code: "weak-kdf-params" }),
    );
  });
});

describe("deriveVaultKey", () => {
  it("is PBKDF2-HMAC-SHA256 (RFC 7914 section 11 vector, first 32 bytes)", async () => {
    const params = {
      name: "PBKDF2",
      hash: "SHA-256",
      iterations: 1,
      salt: base64url.encode(new TextEncoder().encode("salt")),
    } as const;
    const key = await deriveVaultKey("passwd", params);
    expect(key.algorithm).toMatchObject({ name: "AES-GCM", length: 256 });
    const raw = new Uint8Array(await crypto.subtle.exportKey("raw", key));
    expect(bytesToHex(raw)).toBe(
      "0x55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc",
    );
  });

  it("derives the same key from canonically equal passwords (NFKC)", async () => {
    const params = newKdfParams();
    const fast = { ...params, iterations: 1 };
    const raw = async (password: string) =>
      bytesToHex(
        new Uint8Array(await crypto.subtle.exportKey("raw", await deriveVaultKey(password, fast))),
      );
    expect(await raw("caf\u00e9 \ufb01le")).toBe(await raw("cafe\u0301 file"));
    expect(await raw("cafe")).not.toBe(await raw("caf\u00e9"));
  });
});
