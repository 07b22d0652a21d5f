import { describe, expect, it } from "vitest";
import type { McpServerReport } from "../messages";
import { entryOf, fileServerReport, PRICING_LIMITS, type PricingBook } from "./pricing-book";

const server = (i: number) => `https://mcp${i}.example/mcp`;
const origin = (i: number) => `https://site${i}.example`;

describe("fileServerReport", () => {
  it("merges a server's reports and files every origin that saw it", () => {
    let book: PricingBook = {};
    const tools = [{ name: "search", pricing: { estimate: "0.005 USD" } }];
    book = fileServerReport(book, { server: server(1), tools }, origin(1));
    book = fileServerReport(book, { server: server(1), stipendexPayments: {} }, origin(2));
    expect(book).toEqual({
      [server(1)]: {
        server: server(1),
        stipendexPayments: {},
        tools,
        origins: [origin(1), origin(2)],
      },
    });
  });

  it("keeps the hints of every page of a paginated tools/list, a tool listed again taking its newest", () => {
    let book: PricingBook = {};
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
    expect(entryOf(book, server(1))?.tools).toEqual([page1[0], ...page2]);
  });

  it("keeps at most 50 servers per origin after 10,000 reports, the latest ones", () => {
    let book: PricingBook = {};
    for (let i = 0; i < 10_000; i++)
      book = fileServerReport(book, { server: server(i) }, origin(0));
    const servers = Object.keys(book);
    expect(servers).toHaveLength(PRICING_LIMITS.serversPerOrigin);
    expect(servers[0]).toBe(server(10_000 - 50));
    expect(servers.at(-1)).toBe(server(9_999));
  });

  it("keeps an origin's share without dropping a server other origins still saw", () => {
    let book = fileServerReport({}, { server: server(0) }, origin(1));
    for (let i = 0; i <= 50; i++) book = fileServerReport(book, { server: server(i) }, origin(0));
    expect(entryOf(book, server(0))?.origins).toEqual([origin(1)]);
    expect(Object.values(book).filter((e) => e.origins.includes(origin(0)))).toHaveLength(50);
  });

  it("keeps the 20 latest origins of a server after 10,000 reports", () => {
    let book: PricingBook = {};
    for (let i = 0; i < 10_000; i++)
      book = fileServerReport(book, { server: server(0) }, origin(i));
    expect(entryOf(book, server(0))?.origins).toEqual(
      Array.from({ length: 20 }, (_, i) => origin(9_980 + i)),
    );
  });

  it("keeps the whole book within its size, the oldest servers going first", () => {
    const tools = Array.from({ length: 200 }, (_, i) => ({
      name: `${"t".repeat(250)}${i}`,
      pricing: { model: "m".repeat(64), estimate: "e".repeat(64) },
    }));
    let book: PricingBook = {};
    for (let i = 0; i < 30; i++) {
      const report: McpServerReport = { server: server(i), tools };
      book = fileServerReport(book, report, origin(i));
    }
    expect(JSON.stringify(book).length).toBeLessThanOrEqual(PRICING_LIMITS.bookChars);
    expect(entryOf(book, server(29))).toBeDefined();
    expect(entryOf(book, server(0))).toBeUndefined();
  });

  it("reads only a server's own entry, whatever name a page gives", () => {
    expect(entryOf({}, "__proto__")).toBeUndefined();
    expect(entryOf({}, "toString")).toBeUndefined();
    const book = fileServerReport({}, { server: "constructor" }, origin(0));
    expect(entryOf(book, "constructor")).toEqual({ server: "constructor", origins: [origin(0)] });
  });
});
