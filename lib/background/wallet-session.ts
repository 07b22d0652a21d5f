import type { WalletState } from "../messages";
import { noWallet, PaymentError, walletLocked } from "../payments/errors";
import { STORAGE_KEYS } from "../storage-keys";
import { autoLockAt, invalidAutoLock, MAX_AUTO_LOCK_MINUTES } from "../wallet/auto-lock";
import type { KeyValueStore } from "../wallet/key-value-store";
import {
  changePassword,
  createVault,
  exportPrivateKey,
  type UnlockedWallet,
  unlockVault,
} from "../wallet/keyring";
import { readItem, removeItem, storageItem, writeItem } from "../wallet/storage-item";
import type { VaultRecord } from "../wallet/vault";
import {
  loadVault,
  lock,
  markVaultMoved,
  moveLegacyVault,
  resumeSession,
  saveSession,
  saveVault,
} from "../wallet/vault-store";

/** The settings table (storage.local before schema v3): minutes of inactivity before locking. */
export const AUTO_LOCK_ITEM = storageItem<number>(STORAGE_KEYS.autoLockMinutes, (stored) =>
  typeof stored === "number" ? stored : undefined,
);
/** The settings table (storage.local before): true while a key the wallet made waits for the person's backup. */
export const BACKUP_PENDING_ITEM = storageItem<boolean>(STORAGE_KEYS.backupPending, (stored) =>
  stored === true ? true : undefined,
);
export const DEFAULT_AUTO_LOCK_MINUTES = 15;
/** How early the auto-lock may fire after activity rather than re-arm the alarm on every request. */
export const RESCHEDULE_SLACK_MS = 15_000;

export interface WalletSessionDeps {
  /** storage.local: where older versions kept the vault, the backup reminder and the auto-lock time. */
  local: KeyValueStore;
  /** The wallet database's settings, which content scripts cannot reach: the vault, the backup reminder, the auto-lock time. */
  settings: KeyValueStore;
  /** storage.session: the derived key while unlocked. */
  session: KeyValueStore;
  /** Arms (or, with undefined, disarms) the auto-lock alarm. */
  scheduleLock(at: number | undefined): Promise<void>;
  now(): number;
}

/**
 * The wallet's keys as the background holds them: locked (only the encrypted
 * vault), or unlocked (the derived key in storage.session, the opened keys in
 * this worker's memory, rebuilt from that key after a restart).
 */
export class WalletSession {
  private unlocked: UnlockedWallet | undefined;
  /** A vault, once seen, stays: the wallet has no way to delete one. */
  private vaultSeen = false;
  /** The auto-lock time as last read or set by this worker. */
  private autoLock: number | undefined;
  /** When the armed auto-lock alarm fires, as this worker last set it. */
  private lockAt: number | undefined;
  /**
   * Grows with every lock. A resume or unlock that began before the latest
   * lock does not put the keys back: the auto-lock alarm can fire while a
   * restarted worker is still resuming its session.
   */
  private locks = 0;
  /** The move of an older version's vault out of storage.local, done before this worker reads one. */
  private vaultMoved: Promise<void> | undefined;

  constructor(private readonly deps: WalletSessionDeps) {}

  async hasWallet(): Promise<boolean> {
    if (!this.vaultSeen) this.vaultSeen = (await loadVault(await this.vaults())) !== undefined;
    return this.vaultSeen;
  }

  /** The unlocked wallet, resumed from storage.session after a worker restart; undefined when locked. */
  async current(): Promise<UnlockedWallet | undefined> {
    if (this.unlocked) return this.unlocked;
    const locks = this.locks;
    const resumed = await resumeSession(await this.vaults(), this.deps.session);
    if (this.unlocked) {
      // An unlock or a password change finished first: its keys stand, and its session key,
      // which this resume may have read as stale and dropped, is kept.
      if (!resumed) await saveSession(this.deps.session, this.unlocked);
    } else if (this.locks === locks) {
      this.unlocked = resumed;
    }
    return this.unlocked;
  }

  /** Whether `wallet` is still the unlocked one: false once a lock landed. In memory, for the signing path. */
  isOpen(wallet: UnlockedWallet): boolean {
    return this.unlocked === wallet;
  }

  async state(): Promise<WalletState> {
    const vault = await loadVault(await this.vaults());
    const wallet = vault ? await this.current() : undefined;
    return {
      hasWallet: vault !== undefined,
      locked: wallet === undefined,
      ...(vault ? { address: vault.address, walletId: vault.walletId } : {}),
      autoLockMinutes: await this.autoLockMinutes(),
      ...((await readItem(await this.vaults(), BACKUP_PENDING_ITEM))
        ? { backupPending: true }
        : {}),
    };
  }

  async create(password: string, importPrivateKey?: string): Promise<WalletState> {
    const locks = this.locks;
    const vault = await createVault(
      password,
      importPrivateKey === undefined ? {} : { importKey: importPrivateKey },
    );
    await saveVault(await this.vaults(), vault);
    if (importPrivateKey === undefined) {
      await writeItem(await this.vaults(), BACKUP_PENDING_ITEM, true);
    }
    await this.open(await unlockVault(vault, password), locks);
    return this.state();
  }

  async confirmBackup(): Promise<WalletState> {
    await this.savedVault();
    await removeItem(await this.vaults(), BACKUP_PENDING_ITEM);
    return this.state();
  }

  async unlock(password: string): Promise<WalletState> {
    const locks = this.locks;
    const vault = await this.savedVault();
    if (!(await this.open(await unlockVault(vault, password), locks))) {
      // The person typed the right password: say why the wallet is still locked.
      throw new PaymentError(
        "wallet-locked",
        "The wallet was locked while it was being unlocked: enter your password again",
      );
    }
    return this.state();
  }

  async lock(): Promise<WalletState> {
    this.locks += 1;
    this.unlocked = undefined;
    this.lockAt = undefined;
    await lock(this.deps.session);
    await this.deps.scheduleLock(undefined);
    return this.state();
  }

  async changePassword(oldPassword: string, newPassword: string): Promise<void> {
    const locks = this.locks;
    const vault = await this.savedVault();
    const changed = await changePassword(vault, oldPassword, newPassword);
    await saveVault(await this.vaults(), changed);
    await this.open(await unlockVault(changed, newPassword), locks);
  }

  async exportKey(password: string): Promise<string> {
    const vault = await this.savedVault();
    return exportPrivateKey(vault, password);
  }

  async setAutoLock(minutes: number): Promise<WalletState> {
    if (!Number.isSafeInteger(minutes) || minutes <= 0 || minutes > MAX_AUTO_LOCK_MINUTES) {
      throw invalidAutoLock(minutes);
    }
    await writeItem(this.deps.settings, AUTO_LOCK_ITEM, minutes);
    await removeItem(this.deps.local, AUTO_LOCK_ITEM);
    this.autoLock = minutes;
    this.lockAt = undefined;
    await this.touch();
    return this.state();
  }

  /**
   * Activity pushes the auto-lock back. An agent paying many times a second
   * would otherwise re-arm the alarm on every payment: it is moved only once
   * it would fire more than RESCHEDULE_SLACK_MS early.
   */
  async touch(): Promise<void> {
    if (!(await this.current())) return;
    const at = autoLockAt(this.deps.now(), await this.autoLockMinutes());
    if (this.lockAt !== undefined && at - this.lockAt < RESCHEDULE_SLACK_MS) return;
    this.lockAt = at;
    await this.deps.scheduleLock(at);
  }

  /** Throws unless unlocked. */
  async require(): Promise<UnlockedWallet> {
    const wallet = await this.current();
    if (!wallet) throw walletLocked();
    return wallet;
  }

  /** The stored vault, which exists once a wallet was created or imported. */
  private async savedVault(): Promise<VaultRecord> {
    const vault = await loadVault(await this.vaults());
    if (!vault) throw noWallet();
    return vault;
  }

  /** The extension was installed afresh: there is no older vault to look for in storage.local. */
  async installed(): Promise<void> {
    await markVaultMoved(this.deps.settings);
  }

  /** Where the vault is kept (the settings table), once one an older version left in storage.local was moved. */
  private async vaults(): Promise<KeyValueStore> {
    this.vaultMoved ??= moveLegacyVault(this.deps.local, this.deps.settings).catch(
      (error: unknown) => {
        // Not moved: the old copy stays, and the next read tries again.
        this.vaultMoved = undefined;
        throw error;
      },
    );
    await this.vaultMoved;
    return this.deps.settings;
  }

  /**
   * Installs opened keys, unless a lock landed since the opening began
   * (`locks` then): the lock wins. Whether they were installed.
   */
  private async open(wallet: UnlockedWallet, locks: number): Promise<boolean> {
    if (this.locks !== locks) return false;
    this.unlocked = wallet;
    this.vaultSeen = true;
    this.lockAt = undefined;
    await saveSession(this.deps.session, wallet);
    await this.touch();
    return true;
  }

  /** From the settings table; a time an older version kept in storage.local is moved over once. */
  private async autoLockMinutes(): Promise<number> {
    if (this.autoLock !== undefined) return this.autoLock;
    let stored = await readItem(this.deps.settings, AUTO_LOCK_ITEM);
    if (stored === undefined) {
      const legacy = await readItem(this.deps.local, AUTO_LOCK_ITEM);
      if (legacy !== undefined) {
        await writeItem(this.deps.settings, AUTO_LOCK_ITEM, legacy);
        await removeItem(this.deps.local, AUTO_LOCK_ITEM);
        stored = legacy;
      }
    }
    this.autoLock = stored ?? DEFAULT_AUTO_LOCK_MINUTES;
    return this.autoLock;
  }
}
