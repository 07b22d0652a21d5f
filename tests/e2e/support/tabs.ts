import type { Page as ChromiumPage } from "playwright-core";
import type { ElementHandle, Page as FirefoxPage } from "puppeteer-core";
import type { InputTab } from "./activation";
import type { FramedPage } from "./hostile";
import type { Tab } from "./payments";
import { pollFor } from "./wait";

/** How long a click or read waits for its element to show up. */
const ELEMENT_TIMEOUT = 10_000;

/** A Playwright page as the shared checks drive it. */
export function chromiumTab(page: ChromiumPage): Tab {
  return {
    evaluate: (expression) => page.evaluate(expression),
    click: (name) =>
      page
        .getByRole("button", { name, exact: true })
        .click({ timeout: ELEMENT_TIMEOUT })
        .catch((error: unknown) => {
          // The last decision closes the confirmation window, sometimes before the click returns.
          if (!page.isClosed()) throw error;
        }),
    text: (testId) => page.getByTestId(testId).textContent({ timeout: ELEMENT_TIMEOUT }),
  };
}

/** A Puppeteer (WebDriver BiDi) page as the shared checks drive it. */
export function firefoxTab(page: FirefoxPage): Tab {
  return {
    evaluate: (expression) => page.evaluate(expression),
    async click(name) {
      // Puppeteer has no role-and-exact-name locator that waits for an enabled button: look for it.
      const button = await pollFor(
        async () =>
          (
            await page.evaluateHandle(
              (text) =>
                [...document.querySelectorAll("button")].find(
                  (b) => b.textContent?.trim() === text && !b.disabled,
                ) ?? null,
              name,
            )
          ).asElement() as ElementHandle<Element> | null,
        `an enabled "${name}" button`,
        ELEMENT_TIMEOUT,
      );
      await button.click();
    },
    async text(testId) {
      const element = await page.waitForSelector(`[data-testid="${testId}"]`, {
        timeout: ELEMENT_TIMEOUT,
      });
      return (await element?.evaluate((e) => e.textContent)) ?? null;
    },
  };
}

/** A Playwright page driven with raw keys and mouse clicks, as a person's hands would. */
export function chromiumInputTab(page: ChromiumPage): InputTab {
  return {
    ...chromiumTab(page),
    pressEnter: () => page.keyboard.press("Enter"),
    type: (text) => page.keyboard.type(text),
    clickAt: (x, y, clicks) => page.mouse.click(x, y, { clickCount: clicks }),
    bringToFront: () => page.bringToFront(),
  };
}

/** A Puppeteer page driven with raw keys and mouse clicks, as a person's hands would. */
export function firefoxInputTab(page: FirefoxPage): InputTab {
  return {
    ...firefoxTab(page),
    pressEnter: () => page.keyboard.press("Enter"),
    type: (text) => page.keyboard.type(text),
    clickAt: (x, y, clicks) => page.mouse.click(x, y, { count: clicks }),
    bringToFront: () => page.bringToFront(),
  };
}

/** A Playwright page frame by frame; Approve buttons found by accessible name, as a person would. */
export function chromiumFrames(page: ChromiumPage): FramedPage {
  return {
    frames: () =>
      Promise.all(
        page.frames().map(async (frame) => ({
          url: frame.url(),
          approveButtons: await frame.getByRole("button", { name: "Approve" }).count(),
        })),
      ),
    close: () => page.close(),
  };
}

/** A Puppeteer page frame by frame; Approve buttons found by their text. */
export function firefoxFrames(page: FirefoxPage): FramedPage {
  return {
    frames: () =>
      Promise.all(
        page.frames().map(async (frame) => ({
          url: frame.url(),
          approveButtons: await frame.$$eval(
            "button",
            (buttons) => buttons.filter((b) => b.textContent?.includes("Approve")).length,
          ),
        })),
      ),
    close: () => page.close(),
  };
}
