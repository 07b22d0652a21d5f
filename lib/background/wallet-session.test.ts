import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { makeHarness } from "../../tests/unit-support/payments/test-support";
import { memoryStore } from "../../tests/unit-support/wallet/memory-store";
import { STORAGE_KEYS } from "../storage-keys";
import type { KeyValueStore } from "../wallet/key-value-store";
import type { UnlockedWallet } from "../wallet/keyring";
import type { VaultRecord } from "../wallet/vault";
import { loadVault, saveSession, saveVault } from "../wallet/vault-store";
import { RESCHEDULE_SLACK_MS, WalletSession } from "./wallet-session";

const PASSWORD = "correct horse battery staple";
const NOW = 1_760_000_000_000;
const MINUTE = 60_000;

function session(local = memoryStore(), sessionStore = memoryStore(), settings = memoryStore()) {
  const scheduled: (number | undefined)[] = [];
  const clock = { ms: NOW };
  const wallet = new WalletSession({
    local,
    session: sessionStore,
    settings,
    now: () => clock.ms,
    scheduleLock: async (at) => {
      scheduled.push(at);
    },
  });
  return { wallet, scheduled, local, sessionStore, settings, clock };
}

let vault: VaultRecord;
let unlocked: UnlockedWallet;
let created: ReturnType<typeof session>;

/** A stored vault, locked or (by its session key) unlocked, without running the KDF again. */
async function existing(options: { unlocked: boolean }) {
  const settings = memoryStore();
  const sessionStore = memoryStore();
  await saveVault(settings, vault);
  if (options.unlocked) await saveSession(sessionStore, unlocked);
  return session(memoryStore(), sessionStore, settings);
}

beforeAll(async () => {
  created = session();
  await created.wallet.create(PASSWORD);
  const stored = await loadVault(created.settings);
  const current = await created.wallet.current();
  if (!stored || !current) return expect.unreachable("create stored no vault");
  vault = stored;
  unlocked = current;
});

describe("WalletSession", () => {
  it("has no wallet, and is locked, before one is created", async () => {
    const { wallet, scheduled } = session();
    expect(await wallet.state()).toEqual({ hasWallet: false, locked: true, autoLockMinutes: 15 });
    await expect(wallet.unlock(PASSWORD)).rejects.toMatchObject({
      name: "PaymentError",
      code: "no-wallet",
    });
    await expect(wallet.require()).rejects.toMatchObject({
      name: "PaymentError",
      code: "wallet-locked",
    });
    await wallet.touch();
    expect(scheduled).toEqual([]);
  });

  it("creates an unlocked wallet and arms the auto-lock", async () => {
    expect(await created.wallet.state()).toEqual({
      hasWallet: true,
      locked: false,
      address: vault.address,
      walletId: vault.walletId,
      autoLockMinutes: 15,
      backupPending: true,
    });
    expect(created.scheduled).toEqual([NOW + 15 * MINUTE]);
    expect(await created.sessionStore.get(STORAGE_KEYS.session)).toEqual(unlocked.sessionKey);
  });

  it("asks for a backup of a key it made until the person confirms one, never of an imported key", async () => {
    const made = session();
    await made.wallet.create(PASSWORD);
    expect((await made.wallet.state()).backupPending).toBe(true);
    // Kept where content scripts cannot remove it (a page could otherwise hide the reminder).
    expect(await made.local.get(STORAGE_KEYS.backupPending)).toBeUndefined();
    await made.local.remove(STORAGE_KEYS.backupPending);
    await made.wallet.lock();
    expect((await made.wallet.state()).backupPending).toBe(true);
    expect((await made.wallet.confirmBackup()).backupPending).toBeUndefined();
    expect(await made.local.get(STORAGE_KEYS.backupPending)).toBeUndefined();

    const imported = session();
    await imported.wallet.create(PASSWORD, `0x${"11".repeat(32)}`);
    expect((await imported.wallet.state()).backupPending).toBeUndefined();
    await expect(session().wallet.confirmBackup()).rejects.toMatchObject({ code: "no-wallet" });
  });

  it("resumes unlocked in a restarted worker from the session key alone", async () => {
    const { wallet, local, sessionStore, settings } = await existing({ unlocked: true });
    expect((await wallet.current())?.address).toBe(vault.address);
    const restarted = session(local, sessionStore, settings).wallet;
    const resumed = await restarted.require();
    expect(resumed.address).toBe(vault.address);
    expect(resumed.signingKey.walletId).toBe(vault.walletId);
  });

  it("locks: forgets the session key, disarms the alarm, and stays locked after a restart", async () => {
    const { wallet, scheduled, local, sessionStore, settings } = await existing({ unlocked: true });
    const state = await wallet.lock();
    expect(state.locked).toBe(true);
    expect(state.address).toBe(vault.address);
    expect(scheduled).toEqual([undefined]);
    expect(await sessionStore.get(STORAGE_KEYS.session)).toBeUndefined();
    expect(await wallet.current()).toBeUndefined();
    expect(await session(local, sessionStore, settings).wallet.current()).toBeUndefined();
  });

  it("stays locked when a lock lands while a restarted worker resumes its session", async () => {
    // The auto-lock alarm wakes a stopped worker: its settlement pass resumes the session, and
    // the alarm's lock() runs before that resume is done.
    const { wallet, sessionStore } = await existing({ unlocked: true });
    const resuming = wallet.current();
    await wallet.lock();
    await resuming;
    expect(await sessionStore.get(STORAGE_KEYS.session)).toBeUndefined();
    expect(await wallet.current()).toBeUndefined();
    expect((await wallet.state()).locked).toBe(true);
  });

  it("stays locked when the auto-lock alarm wakes the worker (settlement pass at start, then the lock)", async () => {
    const h = await makeHarness();
    h.restart(); // an idle-stopped worker: storage.session still holds the derived key
    const startPass = h.settlements.run(); // entrypoints/background.ts: trackSettlements() at start
    await h.wallet.lock(); // the AUTO_LOCK_ALARM
    await startPass;
    expect(await h.wallet.current()).toBeUndefined();
    expect(await h.session.get(STORAGE_KEYS.session)).toBeUndefined();
  });

  it("stays locked when a lock lands while an unlock derives its key", async () => {
    const { wallet, sessionStore, scheduled } = await existing({ unlocked: false });
    const unlocking = wallet.unlock(PASSWORD);
    await wallet.lock();
    await expect(unlocking).rejects.toMatchObject({
      name: "PaymentError",
      code: "wallet-locked",
      message: "The wallet was locked while it was being unlocked: enter your password again",
    });
    expect(await wallet.current()).toBeUndefined();
    expect(await sessionStore.get(STORAGE_KEYS.session)).toBeUndefined();
    expect(scheduled).toEqual([undefined]);
  });

  it("keeps a changed password's session when a resume begun before the change finds its key stale", async () => {
    const { local, sessionStore, settings } = await existing({ unlocked: true });
    // A resume reads the old session key, then (after the change) the new vault.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = false;
    const slowSession: KeyValueStore = {
      ...sessionStore,
      get: async (key) => {
        const value = await sessionStore.get(key);
        if (!held) {
          held = true;
          await released;
        }
        return value;
      },
    };
    const { wallet } = session(local, slowSession, settings);
    const resuming = wallet.current();
    await wallet.changePassword(PASSWORD, "a new and longer passphrase");
    release();
    await resuming;
    const opened = await wallet.current();
    expect(opened?.address).toBe(vault.address);
    expect(await sessionStore.get(STORAGE_KEYS.session)).toEqual(opened?.sessionKey);
    expect((await session(local, sessionStore, settings).wallet.current())?.address).toBe(
      vault.address,
    );
  });

  it("refuses a wrong password and unlocks with the right one", async () => {
    const { wallet, scheduled } = await existing({ unlocked: false });
    await expect(wallet.unlock("wrong password")).rejects.toMatchObject({
      name: "WalletError",
      code: "wrong-password",
    });
    expect(await wallet.current()).toBeUndefined();
    expect(scheduled).toEqual([]);
    expect((await wallet.unlock(PASSWORD)).locked).toBe(false);
    expect(scheduled).toEqual([NOW + 15 * MINUTE]);
  });

  it("schedules the lock at the chosen minutes, and refuses impossible ones", async () => {
    const { wallet, scheduled, settings, clock } = await existing({ unlocked: true });
    expect((await wallet.setAutoLock(5)).autoLockMinutes).toBe(5);
    expect(await settings.get(STORAGE_KEYS.autoLockMinutes)).toBe(5);
    expect(scheduled).toEqual([NOW + 5 * MINUTE]);
    // Activity re-arms the alarm only once it would fire RESCHEDULE_SLACK_MS early or more.
    clock.ms += RESCHEDULE_SLACK_MS - 1;
    await wallet.touch();
    expect(scheduled).toEqual([NOW + 5 * MINUTE]);
    clock.ms += 1;
    await wallet.touch();
    expect(scheduled).toEqual([NOW + 5 * MINUTE, NOW + RESCHEDULE_SLACK_MS + 5 * MINUTE]);
    // A new auto-lock time is armed at once.
    await wallet.setAutoLock(6);
    expect(scheduled.at(-1)).toBe(clock.ms + 6 * MINUTE);
    for (const minutes of [0, -1, 1.5, 7 * 24 * 60 + 1]) {
      await expect(wallet.setAutoLock(minutes)).rejects.toMatchObject({
        name: "WalletError",
        code: "invalid-auto-lock",
        message: `auto-lock minutes must be a whole number from 1 to 10080 (a week), got ${minutes}`,
      });
    }
    expect(await settings.get(STORAGE_KEYS.autoLockMinutes)).toBe(6);
  });

  it("keeps the auto-lock time out of storage.local, which content scripts can write", async () => {
    const { wallet, scheduled, local, settings } = await existing({ unlocked: true });
    // An older version's time is moved over once...
    await local.set(STORAGE_KEYS.autoLockMinutes, 7);
    await wallet.touch();
    expect(scheduled.at(-1)).toBe(NOW + 7 * MINUTE);
    expect(await settings.get(STORAGE_KEYS.autoLockMinutes)).toBe(7);
    expect(await local.get(STORAGE_KEYS.autoLockMinutes)).toBeUndefined();
    // ...and what is written there afterwards changes nothing.
    await local.set(STORAGE_KEYS.autoLockMinutes, 7 * 24 * 60);
    await wallet.touch();
    expect(scheduled.at(-1)).toBe(NOW + 7 * MINUTE);
  });

  it("keeps the vault out of storage.local, which content scripts (a page renderer) can read and write", async () => {
    const { wallet, local, settings } = session();
    await wallet.create(PASSWORD, `0x${"22".repeat(32)}`);
    expect(await local.get(STORAGE_KEYS.vault)).toBeUndefined();
    expect(await settings.get(STORAGE_KEYS.vault)).toMatchObject({ address: expect.any(String) });
  });

  it("moves an older version's vault out of storage.local once, and ignores one put there afterwards", async () => {
    const local = memoryStore();
    const settings = memoryStore();
    await saveVault(local, vault);
    const first = session(local, memoryStore(), settings).wallet;
    expect(await first.state()).toMatchObject({ hasWallet: true, address: vault.address });
    expect(await local.get(STORAGE_KEYS.vault)).toBeUndefined();
    expect(await loadVault(settings)).toEqual(vault);
    // A vault written to storage.local later (a content script) changes nothing, now or after a restart.
    const planted = { ...vault, address: `0x${"ab".repeat(20)}` };
    await local.set(STORAGE_KEYS.vault, planted);
    const restarted = session(local, memoryStore(), settings).wallet;
    expect((await restarted.state()).address).toBe(vault.address);
    expect(await loadVault(settings)).toEqual(vault);
  });

  it("takes no vault from storage.local on a fresh install, even one put there before its first read", async () => {
    const local = memoryStore();
    const settings = memoryStore();
    const fresh = session(local, memoryStore(), settings).wallet;
    await fresh.installed();
    // A content script (a compromised page) writes its own vault before the person opens the popup.
    await saveVault(local, vault);
    expect(await fresh.state()).toMatchObject({ hasWallet: false });
    expect(await loadVault(settings)).toBeUndefined();
  });

  it("exports the key that pays, only with the password", async () => {
    const { wallet } = await existing({ unlocked: true });
    const key = await wallet.exportKey(PASSWORD);
    expect(privateKeyToAccount(key as `0x${string}`).address).toBe(vault.address);
    await expect(wallet.exportKey("nope")).rejects.toMatchObject({
      name: "WalletError",
      code: "wrong-password",
    });
  });
});
