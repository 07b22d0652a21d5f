import { base64url } from "jose";
import { hexToBytes, verifyMessage } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import {
  changePassword,
  createVault,
  exportPrivateKey,
  type UnlockedWallet,
  unlockVault,
  unlockWithSessionKey,
} from "./keyring";
import { openSecrets, type VaultRecord, type VaultSecrets } from "./vault";

// 600,000 PBKDF2 rounds take about a second here: vaults are shared and KDF runs counted.
const PASSWORD = "correct horse battery staple";
const IMPORTED = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

let vault: VaultRecord;
let wallet: UnlockedWallet;
let secrets: VaultSecrets;

beforeAll(async () => {
  vault = await createVault(PASSWORD);
  wallet = await unlockVault(vault, PASSWORD);
  // Read the plaintext with the session key: no extra KDF run.
  const key = await crypto.subtle.importKey("jwk", wallet.sessionKey.key, "AES-GCM", false, [
    "decrypt",
  ]);
  secrets = await openSecrets(key, vault);
});

/** Every encoding a leaked key could take inside a JSON string. */
function encodings(bytes: Uint8Array): string[] {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const b64url = base64url.encode(bytes);
  const b64 = btoa(String.fromCharCode(...bytes));
  return [hex, hex.toUpperCase(), b64url, b64, b64.replace(/=+$/, "")];
}

describe("createVault + unlockVault", () => {
  it("stores the KDF parameters beside the ciphertext, 600,000 iterations by default", () => {
    expect(vault.kdf).toMatchObject({ name: "PBKDF2", hash: "SHA-256", iterations: 600_000 });
    expect(base64url.decode(vault.kdf.salt)).toHaveLength(16);
    expect(base64url.decode(vault.cipher.iv)).toHaveLength(12);
    expect(vault.cipher.name).toBe("AES-GCM");
  });

  it("unlocks to an EVM account at the stored address and an Ed25519 signing key", async () => {
    expect(wallet.address).toBe(vault.address);
    expect(wallet.evmAccount.address).toBe(privateKeyToAddress(secrets.evmPrivateKey));
    const signature = await wallet.evmAccount.signMessage({ message: "hi" });
    expect(await verifyMessage({ address: vault.address, message: "hi", signature })).toBe(true);
    expect(wallet.signingKey.alg).toBe("EdDSA");
    expect(wallet.signingKey.walletId).toBe(vault.walletId);
    expect(vault.walletId).toMatch(/^urn:ietf:params:oauth:jwk-thumbprint:sha-256:[\w-]{43}$/);
  });

  it("keeps no key material and no password in the stored vault, in any encoding", () => {
    const stored = JSON.stringify(vault);
    const evm = hexToBytes(secrets.evmPrivateKey);
    const d = base64url.decode(secrets.signingKey.d);
    expect(evm).toHaveLength(32);
    expect(d).toHaveLength(32);
    for (const needle of [...encodings(evm), ...encodings(d), PASSWORD]) {
      expect(stored).not.toContain(needle);
    }
    // ... nor in the session key kept in storage.session.
    const session = JSON.stringify(wallet.sessionKey);
    for (const needle of [...encodings(evm), ...encodings(d), PASSWORD]) {
      expect(session).not.toContain(needle);
    }
  });

  it("refuses a wrong password as wrong-password, with a clear message", async () => {
    const failure = unlockVault(vault, "Tr0ub4dor&3");
    await expect(failure).rejects.toMatchObject({ name: "WalletError", code: "wrong-password" });
    await expect(failure).rejects.toThrow("Wrong password: it does not unlock this wallet");
  });

  it("refuses weak KDF parameters before doing any work", async () => {
    await expect(createVault(PASSWORD, { iterations: 100_000 })).rejects.toMatchObject({
      name: "WalletError",
      code: "weak-kdf-params",
    });
  });

  it("refuses an invalid imported key", async () => {
    await expect(createVault(PASSWORD, { importKey: "0x1234" })).rejects.toMatchObject({
      name: "WalletError",
      code: "invalid-private-key",
    });
  });

  it("refuses a vault whose clear-text address was swapped", async () => {
    const swapped = { ...vault, address: privateKeyToAddress(IMPORTED) };
    await expect(unlockWithSessionKey(swapped, wallet.sessionKey)).rejects.toMatchObject({
      name: "WalletError",
      code: "vault-corrupt",
    });
  });
});

describe("KDF iterations", () => {
  it("stores 700,000 when asked and unlocks with the stored count", async () => {
    const strong = await createVault(PASSWORD, { iterations: 700_000 });
    expect(strong.kdf.iterations).toBe(700_000);
    expect((await unlockVault(strong, PASSWORD)).address).toBe(strong.address);
    // Same password, other count: a different key, so unlock really follows the record.
    const lowered = { ...strong, kdf: { ...strong.kdf, iterations: 600_000 } };
    await expect(unlockVault(lowered, PASSWORD)).rejects.toMatchObject({
      name: "WalletError",
      code: "wrong-password",
    });
  });
});

describe("unlockWithSessionKey", () => {
  it("re-opens the vault from the session key alone, as a restarted worker does", async () => {
    const kept = JSON.parse(JSON.stringify(wallet.sessionKey));
    const again = await unlockWithSessionKey(vault, kept);
    expect(again.address).toBe(wallet.address);
    expect(again.signingKey.walletId).toBe(wallet.signingKey.walletId);
  });

  it("refuses a session key of another vault", async () => {
    const other = {
      ...wallet.sessionKey,
      key: { ...wallet.sessionKey.key, k: base64url.encode(new Uint8Array(32)) },
    };
    await expect(unlockWithSessionKey(vault, other)).rejects.toMatchObject({
      name: "WalletError",
      code: "session-key-mismatch",
    });
  });
});

describe("changePassword + exportPrivateKey", () => {
  it("re-encrypts under the new password with a new salt and IV, keeping the keys", async () => {
    const imported = await createVault(PASSWORD, { importKey: IMPORTED });
    expect(imported.address).toBe(privateKeyToAddress(IMPORTED));
    const changed = await changePassword(imported, PASSWORD, "new password");
    expect(changed.kdf.salt).not.toBe(imported.kdf.salt);
    expect(changed.cipher.iv).not.toBe(imported.cipher.iv);
    expect(changed.kdf.iterations).toBe(600_000);
    expect(changed.address).toBe(imported.address);
    expect(changed.walletId).toBe(imported.walletId);
    expect(await exportPrivateKey(changed, "new password")).toBe(IMPORTED);
    await expect(exportPrivateKey(changed, PASSWORD)).rejects.toMatchObject({
      name: "WalletError",
      code: "wrong-password",
    });
  });

  it("refuses to change the password without the old one", async () => {
    await expect(changePassword(vault, "guess", "new")).rejects.toMatchObject({
      name: "WalletError",
      code: "wrong-password",
    });
  });

  it("invalidates the old session key", async () => {
    const changed = await changePassword(vault, PASSWORD, "other", { iterations: 600_000 });
    await expect(unlockWithSessionKey(changed, wallet.sessionKey)).rejects.toMatchObject({
      name: "WalletError",
      code: "session-key-mismatch",
    });
  });
});
