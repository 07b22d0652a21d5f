import type { McpServerReport, McpToolPricing } from "../messages";
import { isRecord } from "../protocol/rails/is-record";
import { STORAGE_KEYS } from "../storage-keys";
import type { KeyValueStore } from "../wallet/key-value-store";
import { readItem, storageItem } from "../wallet/storage-item";

/**
 * storage.session: only the background writes it, entry by entry, within PRICING_LIMITS.
 * A book of an older shape (one entry per server, shared by the origins that saw it) is
 * not read: the hints in it were any site's, and pages report them again.
 */
export const PRICING_ITEM = storageItem<PricingBook>(STORAGE_KEYS.pricing, (stored) =>
  Array.isArray(stored) ? stored.filter(isPricingEntry) : undefined,
);

function isPricingEntry(value: unknown): value is PricingEntry {
  return isRecord(value) && typeof value.server === "string" && typeof value.origin === "string";
}

/** One MCP server's declared payments and price hints, as one origin's pages reported them. */
export type PricingEntry = McpServerReport & { origin: string };

/**
 * Every origin's reports, each its own: a site's budget and window read only
 * what its own pages reported, never what another site says of the same server.
 * Oldest reported first.
 */
export type PricingBook = PricingEntry[];

/**
 * Any page may report any server, and the book lives in storage.session
 * (about 10 MB for the whole wallet in Chrome), so it is bounded three ways.
 */
export const PRICING_LIMITS = {
  serversPerOrigin: 50,
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
  const known = reportOf(book, origin, report.server);
  const stipendexPayments = report.stipendexPayments ?? known?.stipendexPayments;
  const tools = report.tools ? mergeTools(known?.tools ?? [], report.tools) : known?.tools;
  const entry: PricingEntry = {
    origin,
    server: report.server,
    ...(stipendexPayments ? { stipendexPayments } : {}),
    ...(tools ? { tools } : {}),
  };
  const others = book.filter((e) => e.origin !== origin || e.server !== report.server);
  return withinSize(withinOriginShare([...others, entry], origin));
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

/** What `origin`'s pages reported of their MCP servers. */
export function reportsOf(book: PricingBook, origin: string): McpServerReport[] {
  return book.filter((e) => e.origin === origin).map(({ origin: _origin, ...report }) => report);
}

/** What `origin`'s pages reported of `server`, if they did. */
export function reportOf(
  book: PricingBook,
  origin: string,
  server: string,
): McpServerReport | undefined {
  return reportsOf(book, origin).find((report) => report.server === server);
}

/** The origin's oldest servers beyond its share are dropped. */
function withinOriginShare(entries: PricingEntry[], origin: string): PricingEntry[] {
  const theirs = entries.filter((e) => e.origin === origin);
  const excess = new Set(theirs.slice(0, -PRICING_LIMITS.serversPerOrigin));
  return entries.filter((e) => !excess.has(e));
}

/** The newest entries that fit in the book's size. */
function withinSize(entries: PricingEntry[]): PricingEntry[] {
  const sizes = entries.map((e) => JSON.stringify(e).length);
  let total = sizes.reduce((sum, size) => sum + size, 0);
  let first = 0;
  while (total > PRICING_LIMITS.bookChars) {
    total -= sizes[first] ?? 0;
    first += 1;
  }
  return entries.slice(first);
}

export async function readPricingBook(session: KeyValueStore): Promise<PricingBook> {
  return (await readItem(session, PRICING_ITEM)) ?? [];
}
