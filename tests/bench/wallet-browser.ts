import type { Page } from "playwright-core";
import { devAccounts } from "../../demo/chain/dev-accounts";
import type { PolicyView } from "../../lib/messages";
import { testCurrency } from "../../lib/wallet/test-money";
import { type ChromiumSession, launchChromium } from "../e2e/support/chromium";
import { callWallet, setUpWallet, withOriginBudget } from "../e2e/support/wallet-chromium";

/** Micro-USD: far more than any bench spends, so no cap or budget ever stops it. */
export const BENCH_BUDGET = "1000000000000";

/** `policy` with caps and an auto-approving daily budget for `origin` that a bench never reaches. */
export function benchPolicy(policy: PolicyView, origin: string): PolicyView {
  const raised = withOriginBudget(policy, origin, {
    amount: BENCH_BUDGET,
    autoApproveUpTo: BENCH_BUDGET,
  });
  return {
    ...raised,
    // The demo chain is a testnet: its payments count against the test-USD caps.
    globalCaps: {
      ...raised.globalCaps,
      [testCurrency("USD")]: { day: BENCH_BUDGET, month: BENCH_BUDGET },
    },
  };
}

export interface WalletBrowser {
  session: ChromiumSession;
  /** The popup page open in a tab: may call UI methods. */
  walletPage: Page;
  close(): Promise<void>;
}

/**
 * Headless Chromium with the built wallet, holding anvil's first payer key, unlocked, and
 * paying `origin` without asking. No chain: the bench's receiver answers without settling.
 */
export async function openWalletBrowser(
  origin: string,
  launch: { userDataDir?: string; extraArgs?: readonly string[] } = {},
): Promise<WalletBrowser> {
  const key = devAccounts(1).payers[0]?.privateKey;
  if (!key) throw new Error("anvil's dev keys ran out");
  const session = await launchChromium({ withWallet: true, ...launch });
  try {
    const walletPage = await setUpWallet(session, key);
    const policy = await callWallet(walletPage, { method: "ui_getPolicy", params: undefined });
    await callWallet(walletPage, { method: "ui_setPolicy", params: benchPolicy(policy, origin) });
    return { session, walletPage, close: () => session.close() };
  } catch (error) {
    await session.close();
    throw error;
  }
}
