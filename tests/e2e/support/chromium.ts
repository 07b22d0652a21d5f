import { type BrowserContext, chromium, type Page } from "playwright-core";
import { builtExtension } from "./builds";
import { extensionPageUrl } from "./extension-url";
import { waitUntil } from "./wait";

export const CHROMIUM_PATH = "/usr/lib/chromium/chromium";

/** Flags that keep a headless Chromium quiet and offline apart from our own server. */
export const BASE_ARGS = [
  "--no-sandbox",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-gpu",
  "--disable-quic",
];

export interface ChromiumSession {
  context: BrowserContext;
  /** The wallet's extension id; undefined when launched without the wallet. */
  extensionId: string | undefined;
  /** chrome-extension://ID/<path>; throws when launched without the wallet. */
  extensionUrl(path: string): string;
  close(): Promise<void>;
}

/**
 * Starts headless Chromium in a fresh temporary profile (or in `userDataDir`,
 * kept after close), with the built wallet loaded unpacked (`withWallet: true`)
 * or without any extension.
 */
export async function launchChromium({
  withWallet,
  userDataDir = "",
  extraArgs = [],
  env,
}: {
  withWallet: boolean;
  userDataDir?: string;
  /** The browser's environment, when not this process's (the native host it starts inherits it). */
  env?: Record<string, string>;
  /** More command-line flags (e.g. a DevTools port for a bench that reads the worker's heap). */
  extraArgs?: readonly string[];
}): Promise<ChromiumSession> {
  const dir = withWallet ? builtExtension("chrome-mv3") : undefined;
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    ...(env ? { env } : {}),
    args: [
      ...BASE_ARGS,
      ...(dir
        ? [`--disable-extensions-except=${dir}`, `--load-extension=${dir}`]
        : ["--disable-extensions"]),
      ...extraArgs,
    ],
  });
  try {
    const extensionId = dir ? await walletId(context) : undefined;
    return {
      context,
      extensionId,
      extensionUrl: (path) =>
        extensionPageUrl(extensionId && `chrome-extension://${extensionId}/`, path),
      close: () => context.close(),
    };
  } catch (error) {
    await context.close();
    throw error;
  }
}

async function walletId(context: BrowserContext): Promise<string> {
  const worker =
    context.serviceWorkers()[0] ??
    (await context.waitForEvent("serviceworker", { timeout: 15_000 }));
  return new URL(worker.url()).host;
}

/**
 * Stops every service worker (the wallet's background included) the way
 * Chrome does after ~30 s idle, through CDP `ServiceWorker.stopAllWorkers`.
 * Playwright's own connection would otherwise keep the worker alive, and it
 * does not report the stop, so this waits for CDP to say each worker is
 * stopped. Returns the script URLs of the workers it stopped.
 */
export async function stopServiceWorkers(page: Page, timeoutMs = 10_000): Promise<string[]> {
  const session = await page.context().newCDPSession(page);
  const running = new Map<string, { scriptURL: string; runningStatus: string }>();
  session.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
    for (const version of versions) running.set(version.versionId, version);
  });
  const versions = () => [...running.values()];
  try {
    await session.send("ServiceWorker.enable");
    await waitUntil(() => running.size > 0, "CDP to list the service workers", timeoutMs);
    const stopping = versions().filter((version) => version.runningStatus !== "stopped");
    await session.send("ServiceWorker.stopAllWorkers");
    await waitUntil(
      () => versions().every((version) => version.runningStatus === "stopped"),
      "the service workers to stop",
      timeoutMs,
    );
    return stopping.map((version) => version.scriptURL);
  } finally {
    await session.detach();
  }
}
