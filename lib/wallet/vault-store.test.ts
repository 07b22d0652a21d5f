import { beforeAll, describe, expect, it } from "vitest";
import { memoryStore } from "../../tests/unit-support/wallet/memory-store";
import { STORAGE_KEYS } from "../storage-keys";
import { createVault, type UnlockedWallet, unlockVault } from "./keyring";
import type { VaultRecord } from "./vault";
import { loadVault, lock, resumeSession, saveSession, saveVault } from "./vault-store";

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
