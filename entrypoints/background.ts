import { createPageHandlers, createUiHandlers } from "@/lib/background/handlers";
import { PolicyStore } from "@/lib/background/policy-store";
import { createRouter } from "@/lib/background/router";
import { WalletSession } from "@/lib/background/wallet-session";
import { openWalletDb } from "@/lib/db/schema";
import { ApprovalQueue } from "@/lib/payments/approvals";
import { createDescriptorSource } from "@/lib/payments/descriptors";
import { PaymentEngine } from "@/lib/payments/engine";
import { createRegistry } from "@/lib/protocol/rails/registry";
import { storageAreaStore } from "@/lib/wallet/key-value-store";

const AUTO_LOCK_ALARM = "stipendex-auto-lock";
const CONFIRM_WINDOW = { width: 440, height: 760 };

export default defineBackground(() => {
  const now = () => Date.now();
  const local = storageAreaStore(browser.storage.local);
  const session = storageAreaStore(browser.storage.session);
  const db = openWalletDb();
  const registry = createRegistry();
  const descriptors = createDescriptorSource((input, init) => fetch(input, init));
  const policy = new PolicyStore(local);
  const wallet = new WalletSession({
    local,
    session,
    now,
    scheduleLock: async (at) => {
      await browser.alarms.clear(AUTO_LOCK_ALARM);
      if (at !== undefined) browser.alarms.create(AUTO_LOCK_ALARM, { when: at });
    },
  });
  const approvals = new ApprovalQueue(session, {
    open: async () =>
      (
        await browser.windows.create({
          url: browser.runtime.getURL("/confirm.html"),
          type: "popup",
          focused: true,
          ...CONFIRM_WINDOW,
        })
      )?.id,
    focus: async (windowId) => {
      try {
        await browser.windows.update(windowId, { focused: true });
        return true;
      } catch {
        return false;
      }
    },
  });
  const engine = new PaymentEngine({
    db,
    session,
    registry,
    approvals,
    challenge: { registry, descriptors, now },
    settings: () => policy.settings(),
    saveSettings: (settings) => policy.saveSettings(settings),
    wallet: () => wallet.current(),
    hasWallet: () => wallet.hasWallet(),
    now,
  });
  const extensionBaseUrl = browser.runtime.getURL("/");
  const services = {
    db,
    session,
    registry,
    descriptors,
    engine,
    approvals,
    policy,
    wallet,
    extensionBaseUrl,
    now,
  };
  const route = createRouter({
    extensionId: browser.runtime.id,
    extensionBaseUrl,
    page: createPageHandlers(services),
    ui: createUiHandlers(services),
  });
  // Registered synchronously in main() so a restarted worker hears them.
  browser.runtime.onMessage.addListener((message, sender) => route(message, sender));
  browser.windows.onRemoved.addListener((windowId) => void approvals.windowClosed(windowId));
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === AUTO_LOCK_ALARM) void wallet.lock();
  });
});
