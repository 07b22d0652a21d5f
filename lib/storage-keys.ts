/**
 * Every key the wallet keeps in extension storage or its settings table, in
 * one place so no key string is written twice. Each one's type and reader is
 * a StorageItem (lib/wallet/storage-item.ts) beside the code that owns it.
 * Plain strings here: pages that only watch a key (the confirmation window)
 * import this without the code that reads the value.
 */
export const STORAGE_KEYS = {
  /** Settings table (storage.local before it was moved there): the encrypted vault. */
  vault: "stipendex.vault",
  /** Settings table: set once a vault in storage.local was moved there, or none was found. */
  vaultMoved: "stipendex.vaultMoved",
  /** storage.session: the derived key while unlocked. */
  session: "stipendex.session",
  /** storage.session: approvals waiting for the person. */
  pending: "stipendex.pending",
  /** storage.session: the person's answers not yet acted on. */
  decisions: "stipendex.decisions",
  /** storage.session: the open confirmation window's id. */
  confirmWindow: "stipendex.confirmWindow",
  /** storage.session: sites whose requests the person closed the window on, until when (ms). */
  quietOrigins: "stipendex.quietOrigins",
  /** storage.session: what MCP servers declared and hinted, as pages reported it. */
  pricing: "stipendex.pricing",
  /** storage.session: when this browser session's first worker started (ms), lib/payments/abandoned-asks.ts. */
  browserSessionStart: "stipendex.browserSessionStart",
  /** storage.session: paywalled pages offered per tab, and their paid loads. */
  pageOffers: "stipendex.pageOffers",
  /** Settings table: the payees the person approved for each desktop app (lib/wallet/approved-payees.ts). */
  approvedPayees: "stipendex.approvedPayees",
  /** Settings table (and storage.local before schema v3): minutes of inactivity before locking. */
  autoLockMinutes: "stipendex.autoLockMinutes",
  /** storage.local: set while a key the wallet made has not been backed up by the person. */
  backupPending: "stipendex.backupPending",
  /**
   * The wallet pages' localStorage: the person's theme (lib/ui/theme.ts). Read
   * there, synchronously, so a page is painted in it from the first frame.
   */
  theme: "stipendex.theme",
  /** storage.local before schema v3: the policy (moved to the settings table). */
  legacyPolicy: "stipendex.policy",
} as const;
