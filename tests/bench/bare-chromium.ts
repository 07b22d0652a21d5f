import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtExtension } from "../e2e/support/builds";
import { BASE_ARGS, CHROMIUM_PATH } from "../e2e/support/chromium";
import { pollFor } from "../e2e/support/wait";
import { devtoolsCalls } from "./devtools-socket";

/**
 * A tab of a headless Chromium driven over a bare DevTools socket: each call
 * is one Runtime.evaluate and no domain is ever enabled, so the page sends no
 * network events (a Playwright page reports every request, about 2 ms each).
 */
export interface BareTab {
  /** The value of `expression` in the tab, awaited; throws with the page's error text. */
  evaluate(expression: string): Promise<unknown>;
  close(): Promise<void>;
}

const START_MS = 15_000;

/**
 * Headless Chromium and one tab at `url`: with the built wallet, with the unpacked extension
 * in directory `extension`, or with no extension at all.
 */
export async function openBareTab(
  url: string,
  { withWallet, extension: unpacked }: { withWallet: boolean; extension?: string },
): Promise<BareTab> {
  const userDataDir = await mkdtemp(join(tmpdir(), "stipendex-bare-"));
  const extension = withWallet ? builtExtension("chrome-mv3") : unpacked;
  const browser = spawn(
    CHROMIUM_PATH,
    [
      ...BASE_ARGS,
      "--headless",
      "--remote-debugging-port=0",
      `--user-data-dir=${userDataDir}`,
      ...(extension
        ? [`--disable-extensions-except=${extension}`, `--load-extension=${extension}`]
        : ["--disable-extensions"]),
      "about:blank",
    ],
    { stdio: "ignore" },
  );
  const exited = once(browser, "exit");
  const close = async () => {
    if (browser.exitCode === null && browser.signalCode === null) browser.kill();
    await exited;
    await rm(userDataDir, { recursive: true, force: true });
  };
  try {
    const port = await pollFor(
      async () => (await readFile(join(userDataDir, "DevToolsActivePort"), "utf8")).split("\n")[0],
      "Chromium's DevTools port",
      START_MS,
    );
    const opened = await fetch(`http://127.0.0.1:${port}/json/new?${url}`, { method: "PUT" });
    const { webSocketDebuggerUrl } = (await opened.json()) as { webSocketDebuggerUrl: string };
    const evaluate = async (expression: string) => {
      const [answer] = (await devtoolsCalls(webSocketDebuggerUrl, [
        {
          method: "Runtime.evaluate",
          params: { expression, awaitPromise: true, returnByValue: true },
        },
      ])) as {
        result?: { value?: unknown };
        exceptionDetails?: { exception?: { description?: string }; text?: string };
      }[];
      if (answer?.exceptionDetails) {
        const { exception, text } = answer.exceptionDetails;
        throw new Error(`In the bare tab at ${url}: ${exception?.description ?? text}`);
      }
      return answer?.result?.value;
    };
    await pollFor(
      async () => (await evaluate("document.readyState")) === "complete",
      `${url} loaded in the bare tab`,
      START_MS,
    );
    return { evaluate, close };
  } catch (error) {
    await close();
    throw error;
  }
}
