/** The origin of a web page URL; undefined for browser pages (about:, chrome://, file:). */
export function webOrigin(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The origin of the tab the person is looking at, as the browser reports it. */
export async function activeTabOrigin(): Promise<string | undefined> {
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return webOrigin(tab?.url);
}

/**
 * The id of the tab the person is looking at in the last focused browser
 * window: the toolbar popup's page, even when the popup is opened as a window.
 */
export async function activePageTabId(): Promise<number | undefined> {
  const window = await browser.windows.getLastFocused({ windowTypes: ["normal"], populate: true });
  return window.tabs?.find((tab) => tab.active)?.id;
}
