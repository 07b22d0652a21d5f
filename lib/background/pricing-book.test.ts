import { describe, expect, it } from "vitest";
import { memoryStore } from "../../tests/unit-support/wallet/memory-store";
import type { McpServerReport } from "../messages";
import { STORAGE_KEYS } from "../storage-keys";
import {
  fileServerReport,
  PRICING_LIMITS,
  type PricingBook,
  readPricingBook,
  reportOf,
  reportsOf,
} from "./pricing-book";

const server = (i: number) => `https://mcp${i}.example/mcp`;
const origin = (i: number) => `https://site${i}.example`;

describe("fileServerReport", () => {
  it("merges a server's reports from one origin", () => {
    let book: PricingBook = [];
    const tools = [{ name: "search", pricing: { estimate: "0.005 USD" } }];
    book = fileServerReport(book, { server: server(1), tools }, origin(1));
    book = fileServerReport(book, { server: server(1), stipendexPayments: {} }, origin(1));
    expect(reportsOf(book, origin(1))).toEqual([
      { server: server(1), stipendexPayments: {}, tools },
    ]);
  });

  it("keeps each origin's report of a server its own: another origin's changes nothing of it", () => {
    const tools = [{ name: "search", pricing: { estimate: "0.005 USD" } }];
    const evil = {
      server: server(1),
      stipendexPayments: {},
      tools: [{ name: "search", pricing: { estimate: "1 USD" } }],
    };
    let book = fileServerReport([], { server: server(1), tools }, origin(1));
    book = fileServerReport(book, evil, origin(2));
    expect(reportOf(book, origin(1), server(1))).toEqual({ server: server(1), tools });
    expect(reportOf(book, origin(2), server(1))).toEqual(evil);
    expect(reportOf(book, origin(3), server(1))).toBeUndefined();
    expect(reportsOf(book, origin(3))).toEqual([]);
  });

  it("keeps the hints of every page of a paginated tools/list, a tool listed again taking its newest", () => {
    let book: PricingBook = [];
    const page1 = [
      { name: "search", pricing: { estimate: "0.005 USD" } },
      { name: "fetch", pricing: { estimate: "0.001 USD" } },
    ];
    const page2 = [
      { name: "research", pricing: { estimate: "0.05 USD" } },
      { name: "fetch", pricing: { estimate: "0.002 USD" } },
    ];
    book = fileServerReport(book, { server: server(1), tools: page1 }, origin(1));
    book = fileServerReport(book, { server: server(1), tools: page2 }, origin(1));
    expect(reportOf(book, origin(1), server(1))?.tools).toEqual([page1[0], ...page2]);
  });

  it("keeps at most 50 servers per origin after 10,000 reports, the latest ones", () => {
    let book: PricingBook = [];
    for (let i = 0; i < 10_000; i++)
      book = fileServerReport(book, { server: server(i) }, origin(0));
    const servers = reportsOf(book, origin(0)).map((report) => report.server);
    expect(servers).toHaveLength(PRICING_LIMITS.serversPerOrigin);
    expect(servers[0]).toBe(server(10_000 - 50));
    expect(servers.at(-1)).toBe(server(9_999));
  });

  it("keeps an origin's share without dropping another origin's report of the same server", () => {
    let book = fileServerReport([], { server: server(0) }, origin(1));
    for (let i = 0; i <= 50; i++) book = fileServerReport(book, { server: server(i) }, origin(0));
    expect(reportOf(book, origin(1), server(0))).toEqual({ server: server(0) });
    expect(reportOf(book, origin(0), server(0))).toBeUndefined();
    expect(reportsOf(book, origin(0))).toHaveLength(50);
  });

  it("keeps the whole book within its size, the oldest reports going first", () => {
    const tools = Array.from({ length: 200 }, (_, i) => ({
      name: `${"t".repeat(250)}${i}`,
      pricing: { model: "m".repeat(64), estimate: "e".repeat(64) },
    }));
    let book: PricingBook = [];
    for (let i = 0; i < 30; i++) {
      const report: McpServerReport = { server: server(i), tools };
      book = fileServerReport(book, report, origin(i));
    }
    expect(JSON.stringify(book).length).toBeLessThanOrEqual(PRICING_LIMITS.bookChars);
    expect(reportOf(book, origin(29), server(29))).toBeDefined();
    expect(reportOf(book, origin(0), server(0))).toBeUndefined();
  });

  it("reads only a server's own entry, whatever name a page gives", () => {
    expect(reportOf([], origin(0), "__proto__")).toBeUndefined();
    expect(reportOf([], origin(0), "toString")).toBeUndefined();
    const book = fileServerReport([], { server: "constructor" }, origin(0));
    expect(reportOf(book, origin(0), "constructor")).toEqual({ server: "constructor" });
  });
});

describe("readPricingBook", () => {
  it("reads a book of the older shape, one entry per server shared by origins, as empty", async () => {
    const session = memoryStore();
    await session.set(STORAGE_KEYS.pricing, {
      [server(1)]: { server: server(1), stipendexPayments: {}, origins: [origin(1), origin(2)] },
    });
    expect(await readPricingBook(session)).toEqual([]);
    expect(reportOf(await readPricingBook(session), origin(1), server(1))).toBeUndefined();
  });
});
