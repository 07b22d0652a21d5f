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
