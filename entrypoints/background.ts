import { createPageHandlers, createUiHandlers } from "@/lib/background/handlers";
import { NativeLink } from "@/lib/background/native-link";
import { describeChallenge, PageOffers, pageOfferHandlers } from "@/lib/background/page-offers";
import { servePagePort } from "@/lib/background/page-port";
import { createProxyRouter, createRouter } from "@/lib/background/router";
import { createWalletServices } from "@/lib/background/wallet-services";
import { parseRpcEndpoints } from "@/lib/chain/rpc-endpoints";
import { openWalletDb } from "@/lib/db/schema";
import { NATIVE_HOST_NAME } from "@/lib/messages";
import { storageAreaStore } from "@/lib/wallet/key-value-store";

const AUTO_LOCK_ALARM = "stipendex-auto-lock";
const SETTLEMENT_ALARM = "stipendex-settlements";
/** How often the wallet looks for the desktop proxies' native host when it is not connected. */
const NATIVE_LINK_ALARM = "stipendex-native-link";
const CONFIRM_WINDOW = { width: 440, height: 760 };
/** The toolbar badge counting approvals that wait (amber-700: white text reads on it). */
const BADGE_COLOR = "#b45309";
/** A tab's badge text that gives the tab the global badge again (both browsers take null; the types do not say so). */
const GLOBAL_BADGE = null as unknown as string;

export default defineBackground(() => {
  const extensionBaseUrl = browser.runtime.getURL("/");
  const services = createWalletServices({
    db: openWalletDb(),
    local: storageAreaStore(browser.storage.local),
    session: storageAreaStore(browser.storage.session),
    fetch: (input, init) => fetch(input, init),
    window: {
      open: async () =>
        (
          await browser.windows.create({
            url: browser.runtime.getURL("/confirm.html"),
            type: "popup",
            focused: true,
            ...CONFIRM_WINDOW,
          })
        )?.id,
      exists: async (windowId) => {
        try {
          await browser.windows.get(windowId);
          return true;
        } catch {
          return false;
        }
      },
      showCount: async (count) => {
        await browser.action.setBadgeBackgroundColor({ color: BADGE_COLOR });
        await browser.action.setBadgeText({ text: count ? String(count) : "" });
      },
      close: async (windowId) => {
        // Already closed (by the person, or by itself) is as good.
        await browser.windows.remove(windowId).catch(() => undefined);
      },
      focus: async (windowId) => {
        await browser.windows.update(windowId, { focused: true }).catch(() => undefined);
      },
    },
    scheduleLock: async (at) => {
      await browser.alarms.clear(AUTO_LOCK_ALARM);
      if (at !== undefined) await browser.alarms.create(AUTO_LOCK_ALARM, { when: at });
    },
    scheduleSettlementCheck: async (at) => {
      await browser.alarms.clear(SETTLEMENT_ALARM);
      if (at !== undefined) await browser.alarms.create(SETTLEMENT_ALARM, { when: at });
    },
    builtRpcEndpoints: parseRpcEndpoints(import.meta.env.WXT_DEMO_RPC),
    injectMcpHook: async ({ tabId, frameId }) => {
      await browser.scripting.executeScript({
        target: { tabId, frameIds: [frameId] },
        world: "MAIN",
        injectImmediately: true,
        files: ["/mcp-hook.js"],
      });
    },
    extensionBaseUrl,
    now: () => Date.now(),
  });
  // A pass that fails (the database closing with the worker) is retried by the next alarm or start.
  const trackSettlements = () => void services.settlements.run().catch(() => undefined);
  const page = createPageHandlers(services);
  const pageOffers = new PageOffers({
    session: services.session,
    fetch: (input, init) => fetch(input, init),
    describe: describeChallenge(services),
    pay: (params, caller) => page.stipendex_pay(params, { ...caller, frameId: caller.frameId }),
    withdraw: async (requestId, caller) => {
      await page.stipendex_withdraw({ requestId }, { ...caller, frameId: caller.frameId });
    },
    receipt: (params, origin) =>
      page.stipendex_receipt(params, { origin, tabId: undefined, frameId: undefined }),
    badge: async (tabId, offered) => {
      await browser.action.setBadgeBackgroundColor({ tabId, color: BADGE_COLOR });
      await browser.action.setBadgeText({ tabId, text: offered ? "$" : GLOBAL_BADGE });
    },
    addRule: (rule) => browser.declarativeNetRequest.updateSessionRules({ addRules: [rule] }),
    removeRule: (id) => browser.declarativeNetRequest.updateSessionRules({ removeRuleIds: [id] }),
    load: async (tabId, url) => void (await browser.tabs.update(tabId, { url })),
    now: services.now,
  });
  const route = createRouter({
    extensionId: browser.runtime.id,
    extensionBaseUrl,
    page,
    ui: { ...createUiHandlers(services), ...pageOfferHandlers(pageOffers) },
  });
  // Registered synchronously in main() so a restarted worker hears them.
  browser.runtime.onMessage.addListener((message, sender) => route(message, sender));
  browser.runtime.onConnect.addListener((port) => servePagePort(port, route));
  browser.windows.onRemoved.addListener(
    (windowId) => void services.approvals.windowClosed(windowId),
  );
  const nativeLink = new NativeLink({
    connect: () => {
      const port = browser.runtime.connectNative(NATIVE_HOST_NAME);
      // A host not installed (yet) is expected: reading lastError keeps Chrome from logging it as unchecked.
      port.onDisconnect.addListener(() => void browser.runtime.lastError);
      return port;
    },
    route: createProxyRouter({
      page: createPageHandlers(services),
      walletState: async () => {
        const { hasWallet, locked } = await services.wallet.state();
        return { hasWallet, locked };
      },
    }),
  });
  // Paywalled pages: every top-level response, to notice a 402 with a price and a paid load's answer.
  browser.webRequest.onHeadersReceived.addListener(
    (details) =>
      void pageOffers
        .responded({ ...details, headers: details.responseHeaders ?? [] })
        .catch(() => undefined),
    { urls: ["http://*/*", "https://*/*"], types: ["main_frame"] },
    ["responseHeaders"],
  );
  // A paid load that failed (no answer): filed so, its rule gone before the browser retries it.
  browser.webRequest.onErrorOccurred.addListener(
    (details) => void pageOffers.failed(details).catch(() => undefined),
    { urls: ["http://*/*", "https://*/*"], types: ["main_frame"] },
  );
  browser.tabs.onRemoved.addListener(
    (tabId) => void pageOffers.closed(tabId).catch(() => undefined),
  );
  browser.tabs.onUpdated.addListener((tabId, change) => {
    if (change.status === "complete") void pageOffers.loaded(tabId).catch(() => undefined);
  });
  browser.runtime.onInstalled.addListener(({ reason }) => {
    if (reason === "install") void services.wallet.installed().catch(() => undefined);
  });
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === AUTO_LOCK_ALARM) void services.wallet.lock();
    if (alarm.name === SETTLEMENT_ALARM) trackSettlements();
    if (alarm.name === NATIVE_LINK_ALARM) nativeLink.ensure();
  });
  nativeLink.ensure();
  browser.alarms.create(NATIVE_LINK_ALARM, { periodInMinutes: 1 });
  // A worker that starts looks at what was left unsettled (and re-arms the alarm).
  trackSettlements();
});
