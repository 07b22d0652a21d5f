import { beforeAll, describe, expect, it } from "vitest";
import { memoryStore } from "../../tests/unit-support/wallet/memory-store";
import { STORAGE_KEYS } from "../storage-keys";
import type { KeyValueStore } from "./key-value-store";
import { createVault, type UnlockedWallet, unlockVault } from "./keyring";
import type { VaultRecord } from "./vault";
import {
  loadVault,
  lock,
  moveLegacyVault,
  resumeSession,
  saveSession,
  saveVault,
} from "./vault-store";

let vault: VaultRecord;
let wallet: UnlockedWallet;

beforeAll(async () => {
  vault = await createVault("pw");
  wallet = await unlockVault(vault, "pw");
});

describe("loadVault / saveVault", () => {
  it("round-trips the vault and reports none when empty", async () => {
    const local = memoryStore();
    expect(await loadVault(local)).toBeUndefined();
    await saveVault(local, vault);
    expect(await loadVault(local)).toEqual(vault);
  });

  it("refuses a stored value that is not a vault", async () => {
    const local = memoryStore();
    await local.set(STORAGE_KEYS.vault, { stipendexVault: 2 });
    await expect(loadVault(local)).rejects.toMatchObject({
      name: "WalletError",
      code: "vault-corrupt",
    });
  });
});

describe("saveSession / resumeSession / lock", () => {
  it("resumes the unlocked wallet from storage.session after a restart", async () => {
    const local = memoryStore();
    const session = memoryStore();
    await saveVault(local, vault);
    expect(await resumeSession(local, session)).toBeUndefined();
    await saveSession(session, wallet);
    const resumed = await resumeSession(local, session);
    expect(resumed?.address).toBe(vault.address);
    expect(resumed?.signingKey.walletId).toBe(vault.walletId);
  });

  it("is locked after lock()", async () => {
    const local = memoryStore();
    const session = memoryStore();
    await saveVault(local, vault);
    await saveSession(session, wallet);
    await lock(session);
    expect(await session.get(STORAGE_KEYS.session)).toBeUndefined();
    expect(await resumeSession(local, session)).toBeUndefined();
  });

  it("drops a session key that no longer opens the vault", async () => {
    const local = memoryStore();
    const session = memoryStore();
    await saveVault(local, { ...vault, kdf: { ...vault.kdf, salt: "AAAAAAAAAAAAAAAAAAAAAA" } });
    await saveSession(session, wallet);
    expect(await resumeSession(local, session)).toBeUndefined();
    expect(await session.get(STORAGE_KEYS.session)).toBeUndefined();
  });

  it("drops a malformed session value", async () => {
    const local = memoryStore();
    const session = memoryStore();
    await saveVault(local, vault);
    await session.set(STORAGE_KEYS.session, "garbage");
    expect(await resumeSession(local, session)).toBeUndefined();
    expect(await session.get(STORAGE_KEYS.session)).toBeUndefined();
  });
});

describe("moveLegacyVault", () => {
  it("writes the vault to the settings, reads it back, then removes it from storage.local, once", async () => {
    const local = memoryStore();
    const settings = memoryStore();
    await saveVault(local, vault);
    await moveLegacyVault(local, settings);
    expect(await loadVault(settings)).toEqual(vault);
    expect(await local.get(STORAGE_KEYS.vault)).toBeUndefined();
    // Done once: a vault put in storage.local afterwards is not taken.
    await saveVault(local, { ...vault, address: `0x${"ab".repeat(20)}` });
    await moveLegacyVault(local, settings);
    expect(await loadVault(settings)).toEqual(vault);
  });

  it("moves an older version's backup reminder with the vault", async () => {
    const local = memoryStore();
    const settings = memoryStore();
    await saveVault(local, vault);
    await local.set(STORAGE_KEYS.backupPending, true);
    await moveLegacyVault(local, settings);
    expect(await settings.get(STORAGE_KEYS.backupPending)).toBe(true);
    expect(await local.get(STORAGE_KEYS.backupPending)).toBeUndefined();
  });

  it("takes nothing from storage.local once it found none there", async () => {
    const local = memoryStore();
    const settings = memoryStore();
    await moveLegacyVault(local, settings);
    await saveVault(local, vault);
    await moveLegacyVault(local, settings);
    expect(await loadVault(settings)).toBeUndefined();
  });

  it("finishes a move a stop interrupted after the copy: the copy stands, the old one goes", async () => {
    const local = memoryStore();
    const settings = memoryStore();
    await saveVault(local, vault);
    await saveVault(settings, vault);
    await moveLegacyVault(local, settings);
    expect(await loadVault(settings)).toEqual(vault);
    expect(await local.get(STORAGE_KEYS.vault)).toBeUndefined();
  });

  it("moves a vault it cannot read as it is, rather than lose it", async () => {
    const local = memoryStore();
    const settings = memoryStore();
    await local.set(STORAGE_KEYS.vault, { stipendexVault: 2 });
    await moveLegacyVault(local, settings);
    expect(await settings.get(STORAGE_KEYS.vault)).toEqual({ stipendexVault: 2 });
    expect(await local.get(STORAGE_KEYS.vault)).toBeUndefined();
  });

  it("keeps the old vault when the copy reads back different, and tries again next time", async () => {
    const local = memoryStore();
    const real = memoryStore();
    let broken = true;
    const settings: KeyValueStore = {
      ...real,
      get: async (key) => {
        const value = await real.get(key);
        return broken && key === STORAGE_KEYS.vault && value !== undefined ? { torn: true } : value;
      },
    };
    await saveVault(local, vault);
    await expect(moveLegacyVault(local, settings)).rejects.toMatchObject({
      name: "WalletError",
      code: "vault-not-moved",
    });
    expect(await loadVault(local)).toEqual(vault);
    expect(await real.get(STORAGE_KEYS.vault)).toBeUndefined();
    broken = false;
    await moveLegacyVault(local, settings);
    expect(await loadVault(settings)).toEqual(vault);
    expect(await local.get(STORAGE_KEYS.vault)).toBeUndefined();
  });
});
