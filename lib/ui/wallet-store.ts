import { createStore } from "zustand/vanilla";
import { errorText } from "../errors";
import type { WalletState } from "../messages";
import { callWallet } from "./client";

export interface WalletStore {
  wallet?: WalletState;
  error?: string;
  busy: boolean;
  load(): Promise<void>;
  create(password: string, importPrivateKey?: string): Promise<void>;
  unlock(password: string): Promise<void>;
  lock(): Promise<void>;
  /** The person saved a copy of the key: the backup reminder goes. */
  confirmBackup(): Promise<void>;
}

/** Whether a wallet exists and is unlocked, for the popup and the options page. */
export function createWalletStore() {
  return createStore<WalletStore>()((set) => {
    const run = async (action: () => Promise<WalletState>) => {
      set({ busy: true, error: undefined });
      try {
        set({ wallet: await action(), busy: false });
      } catch (error) {
        set({ error: errorText(error), busy: false });
      }
    };
    return {
      busy: false,
      load: () => run(() => callWallet({ method: "ui_getState", params: undefined })),
      create: (password, importPrivateKey) =>
        run(() =>
          callWallet({
            method: "ui_createWallet",
            params: importPrivateKey ? { password, importPrivateKey } : { password },
          }),
        ),
      unlock: (password) => run(() => callWallet({ method: "ui_unlock", params: { password } })),
      lock: () => run(() => callWallet({ method: "ui_lock", params: undefined })),
      confirmBackup: () => run(() => callWallet({ method: "ui_confirmBackup", params: undefined })),
    };
  });
}
