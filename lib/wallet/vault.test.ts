import { base64url } from "jose";
import { describe, expect, it } from "vitest";
import { newKdfParams } from "./kdf";
import { generateSigningJwk } from "./signing-key";
import { openSecrets, parseVault, sealSecrets, type VaultRecord, type VaultSecrets } from "./vault";

const aesKey = () =>
  crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);

async function sampleSecrets(): Promise<VaultSecrets> {
  return {
    evmPrivateKey: "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    signingKey: await generateSigningJwk(),
  };
}

async function sealedVault(key: CryptoKey, secrets: VaultSecrets): Promise<VaultRecord> {
  return {
    stipendexVault: 1,
    kdf: newKdfParams(),
    ...(await sealSecrets(key, secrets)),
    address: "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23",
    walletId: "urn:ietf:params:oauth:jwk-thumbprint:sha-256:x",
  };
}

describe("sealSecrets / openSecrets", () => {
  it("round-trips the secrets with a 12-byte IV that is fresh each time", async () => {
    const key = await aesKey();
    const secrets = await sampleSecrets();
    const a = await sealedVault(key, secrets);
    const b = await sealedVault(key, secrets);
    expect(base64url.decode(a.cipher.iv)).toHaveLength(12);
    expect(a.cipher.iv).not.toBe(b.cipher.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(await openSecrets(key, a)).toEqual(secrets);
  });

  it("throws wrong-password under another key", async () => {
    const vault = await sealedVault(await aesKey(), await sampleSecrets());
    await expect(openSecrets(await aesKey(), vault)).rejects.toMatchObject({
      name: "WalletError",
      code: "wrong-password",
    });
    await expect(openSecrets(await aesKey(), vault)).rejects.toThrow(
      "Wrong password: it does not unlock this wallet",
    );
  });

  it("throws wrong-password when one ciphertext byte is changed (GCM tag)", async () => {
    const key = await aesKey();
    const vault = await sealedVault(key, await sampleSecrets());
    const bytes = base64url.decode(vault.ciphertext);
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const tampered = { ...vault, ciphertext: base64url.encode(bytes) };
    await expect(openSecrets(key, tampered)).rejects.toMatchObject({
      name: "WalletError",
      code: "wrong-password",
    });
  });

  it("throws vault-corrupt when the plaintext is not a key pair", async () => {
    const key = await aesKey();
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv },
      key,
      new TextEncoder().encode('{"evmPrivateKey":"0x12"}'),
    );
    const vault = {
      ...(await sealedVault(key, await sampleSecrets())),
      cipher: { name: "AES-GCM" as const, iv: base64url.encode(iv) },
      ciphertext: base64url.encode(new Uint8Array(sealed)),
    };
    await expect(openSecrets(key, vault)).rejects.toMatchObject({
      name: "WalletError",
      code: "vault-corrupt",
    });
  });
});

describe("parseVault", () => {
  it("accepts a stored record as it was written", async () => {
    const vault = await sealedVault(await aesKey(), await sampleSecrets());
    expect(parseVault(JSON.parse(JSON.stringify(vault)))).toEqual(vault);
  });

  it("refuses records that are not vaults", async () => {
    const vault = await sealedVault(await aesKey(), await sampleSecrets());
    expect(() => parseVault("nope")).toThrow(
      expect.objectContaining({ name: "WalletError", code: "vault-corrupt" }),
    );
    expect(() => parseVault({ ...vault, kdf: { ...vault.kdf, name: "scrypt" } })).toThrow(
      /vault is corrupt/,
    );
    expect(() => parseVault({ ...vault, ciphertext: "not base64url!" })).toThrow(
      expect.objectContaining({ name: "WalletError", code: "vault-corrupt" }),
    );
  });
});
