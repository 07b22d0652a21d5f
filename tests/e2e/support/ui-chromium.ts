import type { Page } from "playwright-core";
import { launchChromium } from "./chromium";
import type { Role, UiBrowser, UiPage } from "./ui-walk";
import { callWallet, nextConfirmWindow } from "./wallet-chromium";

/** A Playwright page as the walk drives it: roles and labels, exact names. */
export function chromiumUiPage(page: Page): UiPage {
  const byRole = (role: Role, name: string) => page.getByRole(role, { name, exact: true }).first();
  return {
    click: (role, name) => byRole(role, name).click(),
    waitFor: (role, name) => byRole(role, name).waitFor({ timeout: 30_000 }),
    fill: (label, value) => page.getByLabel(label, { exact: true }).fill(value),
    select: async (label, value) => {
      await page.getByLabel(label, { exact: true }).selectOption(value);
    },
    text: async (testId) => (await page.getByTestId(testId).first().textContent()) ?? "",
    texts: (testId) => page.getByTestId(testId).allTextContents(),
    evaluate: (expression) => page.evaluate(expression),
    colorScheme: (scheme) => page.emulateMedia({ colorScheme: scheme }),
    screenshot: async (file) => {
      // A full-page capture keeps a sticky bar where the viewport ended, over the rows below
      // it: the page is photographed in a viewport as tall as the page instead.
      const size = page.viewportSize();
      if (!size) return void (await page.screenshot({ path: file, fullPage: true }));
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width: size.width, height: Math.max(height, size.height) });
      try {
        await page.screenshot({ path: file });
      } finally {
        await page.setViewportSize(size);
      }
    },
    setSize: (width, height) => page.setViewportSize({ width, height }),
    reload: async () => {
      await page.reload();
    },
    bringToFront: () => page.bringToFront(),
    call: (request) => callWallet(page, request),
  };
}

/** Chromium with the built wallet and a fresh profile, for the walk. */
export async function openChromiumUi(): Promise<UiBrowser> {
  const session = await launchChromium({ withWallet: true });
  let opened = 0;
  session.context.on("page", (page) => {
    if (page.url().endsWith("/confirm.html")) opened++;
  });
  const open = async (url: string) => {
    const page = await session.context.newPage();
    await page.goto(url);
    return chromiumUiPage(page);
  };
  return {
    openWalletPage: (path) => open(session.extensionUrl(path)),
    openPage: open,
    nextConfirmWindow: async () => chromiumUiPage(await nextConfirmWindow(session.context)),
    confirmWindowsOpened: () => opened,
    screenshots: true,
    schemes: ["light", "dark"],
    close: () => session.close(),
  };
}
