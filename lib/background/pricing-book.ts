import type { McpServerReport, McpToolPricing } from "../messages";
import { isRecord } from "../protocol/rails/is-record";
import { STORAGE_KEYS } from "../storage-keys";
import type { KeyValueStore } from "../wallet/key-value-store";
import { readItem, storageItem } from "../wallet/storage-item";

/** storage.session: MCP servers' declared payments and price hints, with the origins that saw them. */
/** storage.session: only the background writes it, entry by entry, within PRICING_LIMITS. */
export const PRICING_ITEM = storageItem<PricingBook>(STORAGE_KEYS.pricing, (stored) =>
  isRecord(stored) ? Object.fromEntries(Object.entries(stored).filter(isPricingEntry)) : undefined,
);

function isPricingEntry(entry: [string, unknown]): entry is [string, PricingBook[string]] {
  const [, value] = entry;
  return isRecord(value) && typeof value.server === "string" && Array.isArray(value.origins);
}

/** MCP servers' declared payments and price hints, by server URL, with the origins that saw them. */
export type PricingBook = Record<string, McpServerReport & { origins: string[] }>;

type Entry = PricingBook[string];

/**
 * Any page may report any server, and the book lives in storage.session
 * (about 10 MB for the whole wallet in Chrome), so it is bounded three ways.
 */
export const PRICING_LIMITS = {
  serversPerOrigin: 50,
  originsPerServer: 20,
  /** Tools kept per server, across the pages of a paginated tools/list. */
  toolsPerServer: 1000,
  /** The whole book, as JSON. */
  bookChars: 1024 * 1024,
} as const;

/**
 * Files a server's report (its params already checked) under the origin
 * that sent it. Entries stay in the order they were last reported, oldest
 * first, and the oldest give way when a bound is reached.
 */
export function fileServerReport(
  book: PricingBook,
  report: McpServerReport,
  origin: string,
): PricingBook {
  const known = entryOf(book, report.server);
  const stipendexPayments = report.stipendexPayments ?? known?.stipendexPayments;
  const tools = report.tools ? mergeTools(known?.tools ?? [], report.tools) : known?.tools;
  const origins = [...(known?.origins ?? []).filter((o) => o !== origin), origin];
  const entry: Entry = {
    server: report.server,
    ...(stipendexPayments ? { stipendexPayments } : {}),
    ...(tools ? { tools } : {}),
    origins: origins.slice(-PRICING_LIMITS.originsPerServer),
  };
  const others = Object.values(book).filter((e) => e.server !== report.server);
  return Object.fromEntries(
    withinSize(withinOriginShare([...others, entry], origin)).map((e) => [e.server, e]),
  );
}

/**
 * Each page of a paginated tools/list adds its tools (a tool listed again takes
 * its newest hint); the newest are kept when there are too many.
 */
function mergeTools(known: McpToolPricing[], reported: McpToolPricing[]): McpToolPricing[] {
  const names = new Set(reported.map((tool) => tool.name));
  const merged = [...known.filter((tool) => !names.has(tool.name)), ...reported];
  return merged.slice(-PRICING_LIMITS.toolsPerServer);
}

/** A server's entry; own keys only, since a page names the server ("__proto__", say). */
export function entryOf(book: PricingBook, server: string): Entry | undefined {
  return Object.hasOwn(book, server) ? book[server] : undefined;
}

/** The origin's oldest servers beyond its share forget it; a server no origin saw is dropped. */
function withinOriginShare(entries: Entry[], origin: string): Entry[] {
  const theirs = entries.filter((e) => e.origins.includes(origin));
  const excess = new Set(theirs.slice(0, -PRICING_LIMITS.serversPerOrigin));
  return entries
    .map((e) => (excess.has(e) ? { ...e, origins: e.origins.filter((o) => o !== origin) } : e))
    .filter((e) => e.origins.length > 0);
}

/** The newest entries that fit in the book's size. */
function withinSize(entries: Entry[]): Entry[] {
  const sizes = entries.map((e) => JSON.stringify([e.server, e]).length);
  let total = sizes.reduce((sum, size) => sum + size, 0);
  let first = 0;
  while (total > PRICING_LIMITS.bookChars) {
    total -= sizes[first] ?? 0;
    first += 1;
  }
  return entries.slice(first);
}

export async function readPricingBook(session: KeyValueStore): Promise<PricingBook> {
  return (await readItem(session, PRICING_ITEM)) ?? {};
}
