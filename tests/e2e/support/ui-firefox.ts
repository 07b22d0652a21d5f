import type { Browser, ElementHandle, Page } from "puppeteer-core";
import { StipendexError } from "../../../lib/errors";
import { launchFirefox, untilPage } from "./firefox";
import type { Role, UiBrowser, UiPage } from "./ui-walk";
import { WaitTimeoutError } from "./wait";
import { callWallet } from "./wallet-firefox";

export class UiStepError extends StipendexError {
  override name = "UiStepError";

  constructor(step: string, cause: unknown) {
    super("ui-step-failed", `${step}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** `promise`, failing with the step named: puppeteer's own errors do not say which control. */
const step = <T>(what: string, promise: Promise<T>): Promise<T> =>
  promise.catch((cause: unknown) => {
    throw new UiStepError(what, cause);
  });

const aria = (name: string, role?: Role) =>
  `::-p-aria([name=${JSON.stringify(name)}]${role ? `[role="${role}"]` : ""})`;

/** A Puppeteer page as the walk drives it: ARIA queries by role and name, labels for fields. */
export function firefoxUiPage(page: Page): UiPage {
  // Puppeteer's locators and waits fail across BiDi's document changes: poll with $ instead.
  const found = async (selector: string, enabled = false) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const handle = await page.$(selector).catch(() => null);
      // A person waits for a disabled control (Approve, during its activation delay) to wake.
      const usable =
        handle && (!enabled || (await handle.evaluate((e) => !(e as HTMLButtonElement).disabled)));
      if (handle && usable) return handle;
      if (Date.now() > deadline) throw new WaitTimeoutError(selector, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  /** The form control a label (for=, wrapping, or aria-label) names, as a person reads it. */
  const labelled = async (label: string) => {
    // Polled from here: waitForFunction is refused in an extension page's realm.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const handle = await page.evaluateHandle((text) => {
        const tag = [...document.querySelectorAll("label")].find(
          (l) => l.textContent?.trim() === text,
        );
        if (tag?.htmlFor) return document.getElementById(tag.htmlFor);
        const inside = tag?.querySelector("input, select, textarea");
        if (inside) return inside;
        return [...document.querySelectorAll("[aria-label]")].find(
          (e) => e.getAttribute("aria-label") === text,
        );
      }, label);
      const element = handle.asElement();
      if (element) return element as ElementHandle<HTMLInputElement & HTMLSelectElement>;
      if (Date.now() > deadline) throw new WaitTimeoutError(`a field labelled "${label}"`, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return {
    click: (role, name) =>
      step(
        `click ${role} "${name}"`,
        found(aria(name, role), true).then((handle) => handle.click()),
      ),
    waitFor: async (role, name) => {
      await step(`wait for ${role} "${name}"`, found(aria(name, role)));
    },
    fill: (label, value) =>
      step(
        `fill "${label}"`,
        labelled(label).then(async (field) => {
          // Typed over what the field held, as a person selecting it all would.
          await field.evaluate((input) => input.select());
          await field.type(value);
        }),
      ),
    select: async (label, value) => {
      const select = await step(`find "${label}"`, labelled(label));
      await select.select(value);
    },
    text: async (testId) => {
      const element = await step(`find ${testId}`, found(`[data-testid="${testId}"]`));
      return (await element.evaluate((e) => e.textContent)) ?? "";
    },
    texts: (testId) =>
      page.$$eval(`[data-testid="${testId}"]`, (all) => all.map((e) => e.textContent ?? "")),
    evaluate: <T>(expression: string) => page.evaluate(expression) as Promise<T>,
    // Puppeteer emulates prefers-color-scheme over CDP only: dark is shown the way the person's
    // theme setting shows it (lib/ui/theme.ts: a class on the root); light is headless
    // Firefox's own system theme.
    colorScheme: (scheme) =>
      page.evaluate((dark) => {
        document.documentElement.classList.toggle("dark", dark);
      }, scheme === "dark"),
    screenshot: async (file) => {
      await page.screenshot({ path: file as `${string}.png`, fullPage: true });
    },
    // Firefox over BiDi cannot override the viewport (no emulation.setScreenOrientationOverride).
    setSize: async () => undefined,
    reload: async () => {
      // Awaiting a moz-extension:// navigation never settles: wait for the new document instead.
      await page.evaluate(() => {
        (window as unknown as { stale?: boolean }).stale = true;
      });
      page.reload().catch(() => undefined);
      await untilPage(
        page,
        () =>
          !(window as unknown as { stale?: boolean }).stale && document.readyState === "complete",
        "",
        "the page to reload",
      );
    },
    bringToFront: () => page.bringToFront(),
    call: (request) => callWallet(page, request),
  };
}

/** Opens `url` in a new tab and waits for its document. */
async function openTab(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  page.goto(url).catch(() => undefined);
  await untilPage(
    page,
    (expected) => location.href === expected && document.readyState === "complete",
    url,
    `${url} to load`,
  );
  return page;
}

/** The next page the wallet opens, once it shows confirm.html (start before what opens it). */
async function confirmWindow(browser: Browser): Promise<Page> {
  const known = new Set(browser.targets());
  const target = await browser.waitForTarget((t) => t.type() === "page" && !known.has(t), {
    timeout: 20_000,
  });
  const page = (await target.page()) ?? Promise.reject(new UiStepError(target.url(), "no page"));
  await untilPage(
    await page,
    () => location.pathname.endsWith("/confirm.html") && document.readyState === "complete",
    "",
    "the confirmation window",
  );
  return page;
}

/** Firefox ESR with the built wallet and a fresh profile, for the walk. */
export async function openFirefoxUi(): Promise<UiBrowser> {
  const session = await launchFirefox({ withWallet: true });
  let opened = 0;
  session.browser.on("targetcreated", (target) => {
    if (target.type() === "page") opened++;
  });
  return {
    openWalletPage: async (path) =>
      firefoxUiPage(await openTab(session.browser, session.extensionUrl(path))),
    openPage: async (url) => {
      const page = await session.browser.newPage();
      await page.goto(url);
      return firefoxUiPage(page);
    },
    nextConfirmWindow: async () => firefoxUiPage(await confirmWindow(session.browser)),
    confirmWindowsOpened: () => opened,
    // The README's screenshots come from the Chromium run.
    screenshots: false,
    schemes: ["light", "dark"],
    close: () => session.close(),
  };
}
