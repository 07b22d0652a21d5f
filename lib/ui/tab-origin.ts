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
 * The id of the tab the person is looking at: the active tab of the focused
 * browser window (the toolbar popup's), or of the last focused one when the
 * popup is opened as a window of its own. Firefox's getLastFocused ignores
 * `windowTypes`, so with one browser window, that one.
 */
export async function activePageTabId(): Promise<number | undefined> {
  const windows = (await browser.windows.getAll({ populate: true })).filter(
    (w) => w.type === "normal",
  );
  const last = await browser.windows.getLastFocused({ windowTypes: ["normal"] });
  const window =
    windows.find((w) => w.focused) ??
    windows.find((w) => w.id === last.id) ??
    (windows.length === 1 ? windows[0] : undefined);
  return window?.tabs?.find((tab) => tab.active)?.id;
}
